import type { Conversation, ConversationMessage, DmMessage, DmThread, EventEnvelope, UnreadSummary } from '@hoptrack/proto';
import { expectError, ok } from '@hoptrack/testing';
import { expect } from 'vitest';
import type { Client, TestMessaging } from './support';

/** The response checks every service's tests share. */
export { expectError, ok };

/** Two fresh users who know nothing of each other yet. */
export async function pair(t: TestMessaging): Promise<[Client, Client]> {
  return [await t.user(), await t.user()];
}

/** `from` opens the conversation with `to` (201 or 200 accepted). */
export async function start(from: Client, to: Client): Promise<Conversation> {
  const res = await from.post('/api/conversations', { participantId: to.id });
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json<Conversation>();
}

/** Sends through the conversation API (201 expected). */
export async function say(from: Client, conversationId: string, content: string): Promise<ConversationMessage> {
  return ok<ConversationMessage>(await from.post(`/api/conversations/${conversationId}/messages`, { content }), 201);
}

/** Sends through the thread API (201 expected). */
export async function dm(from: Client, to: Client, content: string): Promise<DmMessage> {
  return ok<DmMessage>(await from.post('/api/messages', { toUserId: to.id, content }), 201);
}

export const conversations = async (client: Client, query = ''): Promise<Conversation[]> => ok<Conversation[]>(await client.get(`/api/conversations${query}`));
export const threads = async (client: Client, query = ''): Promise<DmThread[]> => ok<DmThread[]>(await client.get(`/api/messages${query}`));
export const unread = async (client: Client): Promise<UnreadSummary> => ok<UnreadSummary>(await client.get('/api/messages/unread'));
export const messagesOf = async (client: Client, conversationId: string, query = ''): Promise<ConversationMessage[]> =>
  ok<ConversationMessage[]>(await client.get(`/api/conversations/${conversationId}/messages${query}`));
export const messagesWith = async (client: Client, other: Client, query = ''): Promise<DmMessage[]> => ok<DmMessage[]>(await client.get(`/api/messages/${other.id}${query}`));

/** The viewer's conversation with `other` in their list, if listed. */
export async function listedWith(client: Client, other: Client): Promise<Conversation | undefined> {
  return (await conversations(client)).find((c) => c.participant1Id === other.id || c.participant2Id === other.id);
}

/**
 * The events of the given type messaging published that involve `user` (as sender, recipient or reader).
 * `messagingEvents` drains the relays, but a drain skips rows the background relay has locked and is
 * publishing at that moment (SKIP LOCKED): wait until the outbox holds nothing unpublished, which is
 * only marked once the event is in the stream.
 */
export async function eventsOf<T extends 'message.sent.v1' | 'message.read.v1'>(t: TestMessaging, type: T, user: Client): Promise<Array<EventEnvelope<T>>> {
  await t.settle();
  return (await t.messagingEvents(type)).filter((e) => Object.values(e.data as Record<string, unknown>).includes(user.id));
}
