import type { Conversation, LiveMessageEvent, LiveReadEvent } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '@hoptrack/testing/gateway';
import type { RunningProcess } from '@hoptrack/testing/processes';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import { startTestMessaging, type Instance, type TestMessaging } from './support';

let messaging: TestMessaging;
let second: Instance;
let gateway: RunningProcess;
const opened: LiveClient[] = [];
/** The gateway gives up on a silent upstream after this; heartbeats must beat it. */
const PROXY_IDLE_MS = 1500;

beforeAll(async () => {
  messaging = await startTestMessaging({ LIVE_HEARTBEAT_MS: '400' });
  second = await messaging.startInstance();
  gateway = await startGateway({
    env: {
      MESSAGING_SERVICE_URL: messaging.primary.url,
      GATEWAY_PROXY_TIMEOUT_MS: String(PROXY_IDLE_MS),
      GATEWAY_RATE_LIMIT_PREFIX: `${messaging.config.BUS_NAMESPACE}:gw:`,
    },
  });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await gateway?.stop();
  await messaging?.close();
});

const live = async (url: string, token: string) => {
  const client = await openLive(url, token);
  opened.push(client);
  return client;
};

describe('live delivery', () => {
  it('a message posted on one instance reaches an SSE subscriber connected to another', async () => {
    const alice = await messaging.user();
    const bob = await messaging.user();
    const bobStream = await live(second.url, bob.token);
    expect(bobStream.status).toBe(200);
    expect(bobStream.contentType).toMatch(/^text\/event-stream/);

    // Alice's calls go to the primary instance; Bob listens on the second.
    const started = await alice.post('/api/conversations', { participantId: bob.id });
    const conversation = started.json<Conversation>();
    const sent = await alice.post(`/api/conversations/${conversation.id}/messages`, { content: 'Pints at six?' });
    expect(sent.statusCode).toBe(201);

    const received = await bobStream.waitFor((e) => e.event === 'message', 'the message on the other instance');
    expect(received.data).toMatchObject({
      conversationId: conversation.id,
      messageId: sent.json().id,
      senderId: alice.id,
      recipientId: bob.id,
      content: 'Pints at six?',
    } satisfies Partial<LiveMessageEvent>);
  });

  it('read receipts reach the sender, and the sender’s other tabs see their own message', async () => {
    const alice = await messaging.user();
    const bob = await messaging.user();
    const aliceOtherTab = await live(second.url, alice.token);
    const sent = await alice.post('/api/messages', { toUserId: bob.id, content: 'Still on for Friday?' });
    expect(sent.statusCode).toBe(201);
    await aliceOtherTab.waitFor((e) => e.event === 'message' && (e.data as LiveMessageEvent).messageId === sent.json().id, 'own message in the other tab');

    const read = await bob.patch(`/api/conversations/${(aliceOtherTab.events.at(-1)?.data as LiveMessageEvent).conversationId}/read`);
    expect(read.json()).toMatchObject({ markedRead: 1, unreadCount: 0 });
    const receipt = await aliceOtherTab.waitFor((e) => e.event === 'read', 'read receipt');
    expect(receipt.data).toMatchObject({ readerId: bob.id, senderId: alice.id, count: 1 } satisfies Partial<LiveReadEvent>);
  });

  it('a stream only carries the events of its own user', async () => {
    const alice = await messaging.user();
    const bob = await messaging.user();
    const carol = await messaging.user();
    const carolStream = await live(messaging.primary.url, carol.token);
    const bobStream = await live(messaging.primary.url, bob.token);
    await alice.post('/api/messages', { toUserId: bob.id, content: 'Only for Bob' });
    await bobStream.waitFor((e) => e.event === 'message', 'Bob gets his message');
    // Both streams are fed by the same consumer in the same order: had Carol been sent it, she would have it by now.
    expect(carolStream.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('streams through the gateway unbuffered, held open by heartbeats past its idle timeout', async () => {
    const alice = await messaging.user();
    const bob = await messaging.user();
    const stream = await live(gateway.url, bob.token);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    // Twice the proxy's idle timeout with no message: only the heartbeats keep the stream alive.
    await new Promise((resolve) => setTimeout(resolve, PROXY_IDLE_MS * 2));
    expect(ended).toBe(false);
    const sent = await alice.post('/api/messages', { toUserId: bob.id, content: 'Through the front door' });
    const received = await stream.waitFor((e) => e.event === 'message', 'the message through the gateway');
    expect(received.data).toMatchObject({ messageId: sent.json().id, content: 'Through the front door' });
  });

  it('closes the streams of a user whose password was reset; a stream with the new token stays', async () => {
    const bob = await messaging.user();
    const old = await live(messaging.primary.url, bob.token);
    const other = await live(second.url, bob.token);
    await messaging.updateUser(bob, { tokenVersion: 1 });
    const fresh = await live(second.url, (await messaging.as(bob.id, 1)).token);
    await Promise.all([old.ended, other.ended]);
    // The old token cannot reopen it.
    const again = await fetch(`${messaging.primary.url}/api/messages/events`, { headers: { authorization: `Bearer ${bob.token}` } });
    expect(again.status).toBe(401);
    let freshEnded = false;
    void fresh.ended.then(() => (freshEnded = true));
    const alice = await messaging.user();
    await alice.post('/api/messages', { toUserId: bob.id, content: 'after the reset' });
    await fresh.waitFor((e) => e.event === 'message', 'the new stream still delivers');
    expect(freshEnded).toBe(false);
  });

  it('closes both people’s streams when one blocks the other, and nobody else’s', async () => {
    const alice = await messaging.user();
    const bob = await messaging.user();
    const carol = await messaging.user();
    const [aliceStream, bobStream, carolStream] = await Promise.all([live(messaging.primary.url, alice.token), live(second.url, bob.token), live(second.url, carol.token)]);
    let carolEnded = false;
    void carolStream.ended.then(() => (carolEnded = true));
    await messaging.block(alice, bob);
    await Promise.all([aliceStream.ended, bobStream.ended]);
    await carol.post('/api/messages', { toUserId: alice.id, content: 'still here' });
    await carolStream.waitFor((e) => e.event === 'message', 'Carol’s stream still delivers');
    expect(carolEnded).toBe(false);
  });

  it('refuses a stream without a valid token', async () => {
    const res = await fetch(`${messaging.primary.url}/api/messages/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401 });
    const forged = await fetch(`${messaging.primary.url}/api/messages/events`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(forged.status).toBe(401);
  });

  it('ends open streams when an instance shuts down, so clients reconnect elsewhere', async () => {
    const bob = await messaging.user();
    const third = await messaging.startInstance();
    const stream = await live(third.url, bob.token);
    await third.stop();
    await expect(Promise.race([stream.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 5000))])).resolves.toBe('ended');
  });
});
