import { z } from 'zod';
import { definePush, type DeclaredPush } from './live';
import { CONVERSATION_PAGE_DEFAULT, CONVERSATION_PAGE_MAX, MESSAGE_MAX, MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX, PRESENCE_IDS_MAX } from './constants';
import { pageCursor, pageLimit, uuid } from './common';

/**
 * Messaging (spec sections 2, 3, 4, 5, 7, 8). Two API families read and write
 * one store (docs/decisions.md, 'Messaging'): the conversation API
 * (/api/conversations…) and the older thread API (/api/messages…). A DM
 * thread is a conversation seen from one side; a DM message is a message.
 */
const messageContent = z
  .string({ error: 'Message cannot be empty' })
  .trim()
  .min(1, { error: 'Message cannot be empty' })
  .max(MESSAGE_MAX, { error: `Message must be at most ${MESSAGE_MAX} characters` });

const userId = (field: string) => z.uuid({ error: `${field} must be a valid user id` });


// ---- Bodies, params, queries ----

export const startConversationBody = z.object({ participantId: userId('participantId') });
export type StartConversationBody = z.infer<typeof startConversationBody>;

export const sendMessageBody = z.object({ content: messageContent });
export type SendMessageBody = z.infer<typeof sendMessageBody>;

export const directMessageBody = z.object({ toUserId: userId('toUserId'), content: messageContent });
export type DirectMessageBody = z.infer<typeof directMessageBody>;

export const otherUserParams = z.object({ otherUserId: userId('otherUserId') });

/** Conversations (and DM threads), most recent activity first. */
export const conversationListQuery = z.object({ cursor: pageCursor, limit: pageLimit(CONVERSATION_PAGE_DEFAULT, CONVERSATION_PAGE_MAX) });
/** The newest `limit` messages older than `cursor`, answered oldest first (as a chat shows them). */
export const messageListQuery = z.object({ cursor: pageCursor, limit: pageLimit(MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX) });

// ---- Responses ----

/** A participant as the chat shows them. */
export const messagingPerson = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type MessagingPerson = z.infer<typeof messagingPerson>;

/** Spec: id, senderId, sender, content, createdAt; plus the conversation and the read flag. */
export const conversationMessage = z.object({
  id: uuid,
  conversationId: uuid,
  senderId: uuid,
  sender: messagingPerson,
  content: z.string(),
  messageType: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
});
export type ConversationMessage = z.infer<typeof conversationMessage>;

/** Spec: id, participant1Id, participant2Id, participant1, participant2, unreadCount, lastMessage. */
export const conversation = z.object({
  id: uuid,
  /** Who started it. */
  participant1Id: uuid,
  participant2Id: uuid,
  participant1: messagingPerson,
  participant2: messagingPerson,
  /** Messages to the viewer not yet read. */
  unreadCount: z.number().int(),
  lastMessage: z.object({ id: uuid, content: z.string(), senderId: uuid, createdAt: z.string() }).nullable(),
  lastMessageAt: z.string().nullable(),
  /** False when the other participant has direct messages off: the chat is read-only for the viewer. */
  canMessage: z.boolean(),
  createdAt: z.string(),
});
export type Conversation = z.infer<typeof conversation>;

/** Spec: the older thread-based view of a conversation, from the viewer's side. */
export const dmThread = z.object({
  /** The conversation's id. */
  id: uuid,
  otherUserId: uuid,
  otherUserDisplayName: z.string(),
  otherUserUsername: z.string(),
  otherUserProfilePicture: z.string().nullable(),
  lastMessageContent: z.string().nullable(),
  /** Who wrote the last message (the list shows 'You: …' for the viewer's own). */
  lastMessageSenderId: uuid.nullable(),
  lastMessageAt: z.string().nullable(),
  hasUnreadMessages: z.boolean(),
  unreadCount: z.number().int(),
  /** As on a conversation: false when the other person has direct messages off. */
  canMessage: z.boolean(),
});
export type DmThread = z.infer<typeof dmThread>;

/** Spec: id, fromUserId, toUserId, content, isRead, createdAt. */
export const dmMessage = z.object({
  id: uuid,
  fromUserId: uuid,
  toUserId: uuid,
  content: z.string(),
  messageType: z.string(),
  isRead: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DmMessage = z.infer<typeof dmMessage>;

export const conversationReadResponse = z.object({
  conversationId: uuid,
  /** How many messages this call marked read (0 when all were read already). */
  markedRead: z.number().int(),
  unreadCount: z.literal(0),
});
export type ConversationReadResponse = z.infer<typeof conversationReadResponse>;

/** The navigation badge: unread messages and the conversations holding them. */
export const unreadSummary = z.object({ unreadMessages: z.number().int(), unreadConversations: z.number().int() });
export type UnreadSummary = z.infer<typeof unreadSummary>;

// ---- Live delivery (server-sent events on LIVE_EVENTS_PATH) ----

/** `event: message` — a message the viewer sent (from any tab) or received. */
export const liveMessageEvent = z.object({
  conversationId: uuid,
  messageId: uuid,
  senderId: uuid,
  recipientId: uuid,
  content: z.string(),
  createdAt: z.string(),
});
export type LiveMessageEvent = z.infer<typeof liveMessageEvent>;

/** `event: read` — readerId read `count` messages senderId had sent in the conversation. */
export const liveReadEvent = z.object({
  conversationId: uuid,
  readerId: uuid,
  senderId: uuid,
  count: z.number().int().positive(),
  readAt: z.string(),
});
export type LiveReadEvent = z.infer<typeof liveReadEvent>;

/** `event: notifications` — the viewer's notification inbox changed; the bell shows `unreadCount`. */
export const liveNotificationsEvent = z.object({ unreadCount: z.number().int().nonnegative() });
export type LiveNotificationsEvent = z.infer<typeof liveNotificationsEvent>;

/** `event: presence` — a friend the viewer may see went online or offline (or hid it: offline, no last seen). */
export const livePresenceEvent = z.object({ userId: uuid, online: z.boolean(), lastSeenAt: z.string().nullable() });
export type LivePresenceEvent = z.infer<typeof livePresenceEvent>;

/** SSE event names: `ready` once subscribed (the client refetches what it may have missed), then `message`, `read`, `notifications`, `presence`, `challenges`, `friends` and `feed`. */
export const LIVE_EVENT_NAMES = ['ready', 'message', 'read', 'notifications', 'presence', 'challenges', 'friends', 'feed'] as const;
export type LiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/** The messaging feature's pushes: a message to both its people's streams (every tab of the sender too), a read to both. */
export const messagingLivePushes: DeclaredPush[] = [
  definePush({
    stream: 'MESSAGES',
    event: 'message.sent.v1',
    name: 'message',
    to: (data) => [data.senderId, data.recipientId],
    payload: (data): LiveMessageEvent => data,
  }),
  definePush({
    stream: 'MESSAGES',
    event: 'message.read.v1',
    name: 'read',
    to: (data) => [data.readerId, data.senderId],
    payload: (data): LiveReadEvent => data,
  }),
];

// ---- Presence (issue 25, item 1: spec 6, "Show online status controls visibility to friends") ----

/**
 * `?ids=a,b,c`: the people whose presence the viewer asks about, at most
 * PRESENCE_IDS_MAX (duplicates count once). One field, one message per
 * problem: the `error` option would replace every message with one.
 */
export const presenceQuery = z.object({
  ids: z.string({ error: 'ids must be a comma-separated list of user ids' }).transform((text, ctx) => {
    const ids = [...new Set(text.split(',').map((id) => id.trim()).filter((id) => id !== ''))];
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (ids.length === 0) return fail('ids must name at least one user');
    if (ids.length > PRESENCE_IDS_MAX) return fail(`ids may name at most ${PRESENCE_IDS_MAX} users`);
    if (ids.some((id) => !uuid.safeParse(id).success)) return fail('ids must be user ids separated by commas');
    return ids;
  }),
});
export type PresenceQuery = z.infer<typeof presenceQuery>;

/** One person's presence as the viewer may see it; lastSeenAt is null while online (or when never seen). */
export const presenceEntry = livePresenceEvent;
export type PresenceEntry = LivePresenceEvent;
/** Only the people the viewer may see are in the list: hidden and unknown look the same (absent). */
export const presenceList = z.array(presenceEntry);
