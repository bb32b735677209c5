import { executeSql, queryRows, sql, type TimeCursor } from '@hoptrack/runtime';
import type { Db, Message, Prisma } from '../db';
import { NOT_BLOCKED } from '../domain/rules';

export type MessageWithConversation = Prisma.MessageGetPayload<{ include: { conversation: true } }>;

export interface NewMessage {
  conversationId: string;
  senderId: string;
  recipientId: string;
  content: string;
  createdAt: Date;
}

/** Reads and writes of the messages table. */
export const messagesRepository = {
  findWithConversation(db: Db, id: string): Promise<MessageWithConversation | null> {
    return db.message.findUnique({ where: { id }, include: { conversation: true } });
  },

  /** The message, which must exist. */
  getById(db: Db, id: string): Promise<Message> {
    return db.message.findUniqueOrThrow({ where: { id } });
  },

  /** In no particular order. */
  findByIds(db: Db, ids: string[]): Promise<Message[]> {
    return db.message.findMany({ where: { id: { in: ids } } });
  },

  create(db: Db, message: NewMessage): Promise<Message> {
    return db.message.create({ data: message });
  },

  /** A conversation's messages, newest first, before the cursor (exclusive). */
  listPage(db: Db, conversationId: string, cursor: TimeCursor | null, limit: number): Promise<Message[]> {
    const before = cursor
      ? { OR: [{ createdAt: { lt: new Date(cursor.at) } }, { createdAt: new Date(cursor.at), id: { lt: cursor.id } }] }
      : {};
    return db.message.findMany({
      where: { conversationId, ...before },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
  },

  /** Marks every unread message to `recipientId` in the conversation read; how many it marked. */
  async markAllReadIn(db: Db, conversationId: string, recipientId: string, readAt: Date): Promise<number> {
    const { count } = await db.message.updateMany({
      where: { conversationId, recipientId, isRead: false },
      data: { isRead: true, readAt },
    });
    return count;
  },

  /** Conditional: of two concurrent calls only one changes the row (true), the other finds it read already (false). */
  async markReadIfUnread(db: Db, id: string, readAt: Date): Promise<boolean> {
    const { count } = await db.message.updateMany({ where: { id, isRead: false }, data: { isRead: true, readAt } });
    return count > 0;
  },

  /** Unread messages to the viewer and the conversations they are in, leaving out pairs a block separates. */
  async countUnread(db: Db, viewerId: string): Promise<{ messages: number; conversations: number }> {
    const [row] = await queryRows<Array<{ messages: number; conversations: number }>>(
      db,
      sql`
      SELECT count(*)::int AS messages, count(DISTINCT m.conversation_id)::int AS conversations
        FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE m.recipient_id = ${viewerId}::uuid AND NOT m.is_read AND ${NOT_BLOCKED}`,
    );
    return { messages: row?.messages ?? 0, conversations: row?.conversations ?? 0 };
  },

  /** Unread messages to the viewer per conversation; conversations without any are missing. */
  async countUnreadPerConversation(db: Db, viewerId: string, conversationIds: string[]): Promise<Map<string, number>> {
    const unread = await db.message.groupBy({
      by: ['conversationId'],
      where: { conversationId: { in: conversationIds }, recipientId: viewerId, isRead: false },
      _count: { _all: true },
    });
    return new Map(unread.map((u) => [u.conversationId, u._count._all]));
  },

  /** The conversation's newest message, if it has any. */
  async findLatestIn(db: Db, conversationId: string): Promise<{ id: string; created_at: Date } | undefined> {
    const [last] = await queryRows<Array<{ id: string; created_at: Date }>>(
      db,
      sql`SELECT id::text AS id, created_at FROM messages WHERE conversation_id = ${conversationId}::uuid ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    return last;
  },

  async deleteSentBy(db: Db, senderId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM messages WHERE sender_id = ${senderId}::uuid`);
  },

  /** The conversation's messages to `from` now go to `to`. */
  async readdress(db: Db, conversationId: string, from: string, to: string): Promise<void> {
    await executeSql(db, sql`UPDATE messages SET recipient_id = ${to}::uuid WHERE conversation_id = ${conversationId}::uuid AND recipient_id = ${from}::uuid`);
  },
};
