import type { ConversationReadResponse, UnreadSummary } from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, forbidden, notFound, personById, type Outbox } from '@hoptrack/runtime';
import type { Conversation, Db, Message, Prisma, PrismaClient } from '../db';
import { conversationsRepository } from '../repositories/conversations.repository';
import { messagesRepository } from '../repositories/messages.repository';
import { addressable, assertAcceptsMessages, blockedBetween, CANNOT_MESSAGE, pairKey } from './rules';
import { loadPeople, otherParticipant, type ConversationContext } from './views';

export interface ConversationsDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  /** Tells the relay that events were committed (publishes at once instead of at the next poll). */
  onEventsCommitted: () => void;
  clock: () => Date;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the next (older) page; null on the last one. */
  next: string | null;
}

export interface ListedConversation {
  conversation: Conversation;
  context: ConversationContext;
}

type Tx = Prisma.TransactionClient;

/**
 * The one store behind both API families: conversations of two people and
 * their messages. The conversation API and the thread API are two views of
 * it (views.ts), so a message sent through one is read through the other.
 * Every change that others must hear of (a message, a read receipt) is
 * written with its event in one transaction (outbox).
 */
export class Conversations {
  constructor(private readonly deps: ConversationsDeps) {}

  /** Opens the pair's conversation, creating it the first time (then the other must accept direct messages). */
  async start(viewerId: string, participantId: string): Promise<{ conversation: ListedConversation; created: boolean }> {
    const { prisma } = this.deps;
    const other = await addressable(prisma, viewerId, participantId, 'participantId');
    let conversation = await conversationsRepository.findByPair(prisma, pairKey(viewerId, other.id));
    let created = false;
    if (!conversation) {
      assertAcceptsMessages(other);
      ({ conversation, created } = await this.findOrCreate(prisma, viewerId, other.id));
    }
    const [listed] = await this.withContext(viewerId, [conversation]);
    return { conversation: listed as ListedConversation, created };
  }

  /** The viewer's conversations, latest activity first (empty ones only to whoever started them). */
  async list(viewerId: string, cursorText: string | undefined, limit: number): Promise<Page<ListedConversation>> {
    // One more than the page: whether there is a next one.
    const ids = await conversationsRepository.listIdsOf(this.deps.prisma, viewerId, decodeTimeCursor(cursorText), limit + 1);
    const page = ids.slice(0, limit);
    const rows = await conversationsRepository.findByIds(this.deps.prisma, page);
    const byId = new Map(rows.map((c) => [c.id, c]));
    const ordered = page.map((id) => byId.get(id)).filter((c): c is Conversation => c !== undefined);
    const last = ordered.at(-1);
    return {
      items: await this.withContext(viewerId, ordered),
      next: ids.length > limit && last ? encodeTimeCursor({ at: last.activityAt, id: last.id }) : null,
    };
  }

  /** A conversation's messages, newest page first, each page oldest first. */
  async messages(viewerId: string, conversationId: string, cursorText: string | undefined, limit: number): Promise<Page<Message>> {
    const conversation = await this.visible(this.deps.prisma, viewerId, conversationId);
    return this.messagePage(conversation.id, cursorText, limit);
  }

  /** The thread API's view: the messages between the viewer and `otherUserId` (none yet is an empty page). */
  async messagesWith(viewerId: string, otherUserId: string, cursorText: string | undefined, limit: number): Promise<Page<Message>> {
    const { prisma } = this.deps;
    await addressable(prisma, viewerId, otherUserId, 'otherUserId');
    const conversation = await conversationsRepository.findByPair(prisma, pairKey(viewerId, otherUserId));
    if (!conversation) return { items: [], next: null };
    return this.messagePage(conversation.id, cursorText, limit);
  }

  /** Into a conversation of the viewer's: 404 as anywhere for others, but 403 to a participant a block now separates. */
  async send(viewerId: string, conversationId: string, content: string, requestId?: string): Promise<Message> {
    const message = await this.deps.prisma.$transaction(async (tx) => {
      await this.visible(tx, viewerId, conversationId, { blocked: () => forbidden(CANNOT_MESSAGE) });
      return this.append(tx, conversationId, viewerId, content, requestId);
    });
    this.deps.onEventsCommitted();
    return message;
  }

  /** The thread API's send: to a person, starting the conversation if there is none. */
  async sendTo(viewerId: string, toUserId: string, content: string, requestId?: string): Promise<Message> {
    const message = await this.deps.prisma.$transaction(async (tx) => {
      const other = await addressable(tx, viewerId, toUserId, 'toUserId');
      assertAcceptsMessages(other);
      const { conversation } = await this.findOrCreate(tx, viewerId, other.id);
      return this.append(tx, conversation.id, viewerId, content, requestId);
    });
    this.deps.onEventsCommitted();
    return message;
  }

  /** Marks every message to the viewer in the conversation read (opening it). */
  async markConversationRead(viewerId: string, conversationId: string, requestId?: string): Promise<ConversationReadResponse> {
    const markedRead = await this.deps.prisma.$transaction(async (tx) => {
      const conversation = await this.visible(tx, viewerId, conversationId);
      const readAt = this.deps.clock();
      const count = await messagesRepository.markAllReadIn(tx, conversationId, viewerId, readAt);
      if (count > 0) await this.receipt(tx, conversation, viewerId, count, readAt, requestId);
      return count;
    });
    if (markedRead > 0) this.deps.onEventsCommitted();
    return { conversationId, markedRead, unreadCount: 0 };
  }

  /** Marks one message read; only its recipient may (the sender gets 403, anyone else 404). */
  async markMessageRead(viewerId: string, messageId: string, requestId?: string): Promise<Message> {
    let changed = false;
    const message = await this.deps.prisma.$transaction(async (tx) => {
      const found = await messagesRepository.findWithConversation(tx, messageId);
      const isParticipant = found && (found.senderId === viewerId || found.recipientId === viewerId);
      if (!found || !isParticipant || (await blockedBetween(tx, found.senderId, found.recipientId))) throw notFound('Message not found');
      if (found.recipientId !== viewerId) throw forbidden('Only the recipient can mark a message as read');
      if (found.isRead) return found;
      const readAt = this.deps.clock();
      // Conditional: of two concurrent calls only one changes the row and sends the receipt.
      if (!(await messagesRepository.markReadIfUnread(tx, messageId, readAt))) return messagesRepository.getById(tx, messageId);
      changed = true;
      await this.receipt(tx, found.conversation, viewerId, 1, readAt, requestId);
      return { ...found, isRead: true, readAt };
    });
    if (changed) this.deps.onEventsCommitted();
    return message;
  }

  /** The navigation badge: unread messages to the viewer (blocked pairs excluded, as everywhere). */
  async unread(viewerId: string): Promise<UnreadSummary> {
    const { messages, conversations } = await messagesRepository.countUnread(this.deps.prisma, viewerId);
    return { unreadMessages: messages, unreadConversations: conversations };
  }

  /** The people, last messages and unread counts of listed conversations, in three queries for the page. */
  async withContext(viewerId: string, conversations: Conversation[]): Promise<ListedConversation[]> {
    const { prisma } = this.deps;
    const ids = conversations.map((c) => c.id);
    const lastIds = conversations.map((c) => c.lastMessageId).filter((id): id is string => id !== null);
    const [people, lastMessages, unreadById] = await Promise.all([
      loadPeople(prisma, conversations.flatMap((c) => [c.participant1Id, c.participant2Id])),
      messagesRepository.findByIds(prisma, lastIds),
      messagesRepository.countUnreadPerConversation(prisma, viewerId, ids),
    ]);
    const lastById = new Map(lastMessages.map((m) => [m.id, m]));
    return conversations.map((conversation) => ({
      conversation,
      context: {
        people,
        lastMessage: conversation.lastMessageId ? lastById.get(conversation.lastMessageId) : undefined,
        unreadCount: unreadById.get(conversation.id) ?? 0,
      },
    }));
  }

  /**
   * A conversation the viewer is part of and no block hides; 404 otherwise (its
   * existence is nobody else's business). Sending tells a participant of a
   * blocked pair why instead (`blocked`), as the thread API's send does.
   */
  private async visible(db: Db, viewerId: string, conversationId: string, options: { blocked?: () => Error } = {}): Promise<Conversation> {
    const conversation = await conversationsRepository.findById(db, conversationId);
    const isParticipant = conversation && (conversation.participant1Id === viewerId || conversation.participant2Id === viewerId);
    if (!conversation || !isParticipant) throw notFound('Conversation not found');
    if (await blockedBetween(db, conversation.participant1Id, conversation.participant2Id)) throw options.blocked?.() ?? notFound('Conversation not found');
    return conversation;
  }

  /** Two people starting it at once get the same conversation (the insert does nothing on the pair's conflict). */
  private async findOrCreate(db: Db, starterId: string, otherId: string): Promise<{ conversation: Conversation; created: boolean }> {
    const key = pairKey(starterId, otherId);
    const existing = await conversationsRepository.findByPair(db, key);
    if (existing) return { conversation: existing, created: false };
    const created = await conversationsRepository.insertIfAbsent(db, { participant1Id: starterId, participant2Id: otherId, pairKey: key, at: this.deps.clock() });
    return { conversation: await conversationsRepository.getByPair(db, key), created };
  }

  /**
   * Stores a message under the conversation's row lock, so concurrent sends
   * get strictly increasing times and the last message is the latest one.
   */
  private async append(tx: Tx, conversationId: string, senderId: string, content: string, requestId?: string): Promise<Message> {
    const conversation = await conversationsRepository.lockById(tx, conversationId);
    const recipientId = otherParticipant(conversation, senderId);
    const recipient = await personById(tx, recipientId);
    assertAcceptsMessages(recipient ?? { allowDirectMessages: false });
    const previous = conversation.lastMessageAt?.getTime() ?? 0;
    const createdAt = new Date(Math.max(this.deps.clock().getTime(), previous + 1));
    const message = await messagesRepository.create(tx, { conversationId, senderId, recipientId, content, createdAt });
    await conversationsRepository.recordLastMessage(tx, conversationId, message);
    await this.deps.outbox.enqueue(
      tx,
      'message.sent.v1',
      { conversationId, messageId: message.id, senderId, recipientId, content, createdAt: createdAt.toISOString() },
      requestId,
    );
    return message;
  }

  private receipt(tx: Tx, conversation: Conversation, readerId: string, count: number, readAt: Date, requestId?: string) {
    const senderId = otherParticipant(conversation, readerId);
    return this.deps.outbox.enqueue(tx, 'message.read.v1', { conversationId: conversation.id, readerId, senderId, count, readAt: readAt.toISOString() }, requestId);
  }

  private async messagePage(conversationId: string, cursorText: string | undefined, limit: number): Promise<Page<Message>> {
    // One more than the page: whether there is a next one.
    const rows = await messagesRepository.listPage(this.deps.prisma, conversationId, decodeTimeCursor(cursorText), limit + 1);
    const page = rows.slice(0, limit);
    const oldest = page.at(-1);
    return {
      items: page.reverse(),
      next: rows.length > limit && oldest ? encodeTimeCursor({ at: oldest.createdAt, id: oldest.id }) : null,
    };
  }
}
