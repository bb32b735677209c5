import type { Conversation as ConversationView, ConversationMessage, DmMessage, DmThread, MessagingPerson } from '@hoptrack/proto';
import { peopleByIds, type Person } from '@hoptrack/runtime';
import type { Conversation, Db, Message } from '../db';

/** The read-model rows of the given users, by id. */
export function loadPeople(db: Db, ids: Iterable<string>): Promise<Map<string, Person>> {
  return peopleByIds(db, [...ids]);
}

/**
 * A participant as the chat shows them. Someone the read model has not heard
 * of yet (an event still in flight) shows as a placeholder, never as an error.
 */
export function person(people: Map<string, Person>, id: string, erasedId: string | null = null): MessagingPerson {
  if (id === erasedId) return deletedUser(id);
  const user = people.get(id);
  if (!user) return { id, username: 'unknown', displayName: 'Hoptrack user', profilePicture: null, avatar: null };
  return { id, username: user.username, displayName: user.displayName, profilePicture: user.profilePicture, avatar: user.avatar };
}

/** Shown for the participant whose account was erased (the conversation holds a stand-in id that matches no account). */
export const DELETED_USER_NAME = 'Deleted user';
const deletedUser = (id: string): MessagingPerson => ({ id, username: '', displayName: DELETED_USER_NAME, profilePicture: null, avatar: null });

export const otherParticipant = (c: Pick<Conversation, 'participant1Id' | 'participant2Id'>, viewerId: string) =>
  c.participant1Id === viewerId ? c.participant2Id : c.participant1Id;

/** What a list row needs besides the conversation itself. */
export interface ConversationContext {
  people: Map<string, Person>;
  lastMessage: Message | undefined;
  unreadCount: number;
}

/** The viewer may write when the other participant accepts direct messages (blocked pairs never get this far). */
export const canMessage = (people: Map<string, Person>, otherId: string) => people.get(otherId)?.allowDirectMessages ?? false;

export function conversationView(c: Conversation, viewerId: string, context: ConversationContext): ConversationView {
  const { people, lastMessage } = context;
  return {
    id: c.id,
    participant1Id: c.participant1Id,
    participant2Id: c.participant2Id,
    participant1: person(people, c.participant1Id, c.erasedParticipantId),
    participant2: person(people, c.participant2Id, c.erasedParticipantId),
    unreadCount: context.unreadCount,
    lastMessage: lastMessage
      ? { id: lastMessage.id, content: lastMessage.content, senderId: lastMessage.senderId, createdAt: lastMessage.createdAt.toISOString() }
      : null,
    lastMessageAt: c.lastMessageAt?.toISOString() ?? null,
    canMessage: canMessage(people, otherParticipant(c, viewerId)),
    createdAt: c.createdAt.toISOString(),
  };
}

/** The same conversation as the older thread API shows it, from the viewer's side. */
export function threadView(c: Conversation, viewerId: string, context: ConversationContext): DmThread {
  const other = person(context.people, otherParticipant(c, viewerId), c.erasedParticipantId);
  return {
    id: c.id,
    otherUserId: other.id,
    otherUserDisplayName: other.displayName,
    otherUserUsername: other.username,
    otherUserProfilePicture: other.profilePicture,
    lastMessageContent: context.lastMessage?.content ?? null,
    lastMessageSenderId: context.lastMessage?.senderId ?? null,
    lastMessageAt: c.lastMessageAt?.toISOString() ?? null,
    hasUnreadMessages: context.unreadCount > 0,
    unreadCount: context.unreadCount,
    canMessage: canMessage(context.people, other.id),
  };
}

export function conversationMessageView(m: Message, people: Map<string, Person>): ConversationMessage {
  return {
    id: m.id,
    conversationId: m.conversationId,
    senderId: m.senderId,
    sender: person(people, m.senderId),
    content: m.content,
    messageType: m.messageType,
    isRead: m.isRead,
    createdAt: m.createdAt.toISOString(),
  };
}

export function dmMessageView(m: Message): DmMessage {
  return {
    id: m.id,
    fromUserId: m.senderId,
    toUserId: m.recipientId,
    content: m.content,
    messageType: m.messageType,
    isRead: m.isRead,
    readAt: m.readAt?.toISOString() ?? null,
    createdAt: m.createdAt.toISOString(),
  };
}
