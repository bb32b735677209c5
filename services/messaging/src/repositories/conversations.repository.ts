import { executeSql, queryRows, sql, type TimeCursor } from '@hoptrack/runtime';
import type { Conversation, Db, Prisma } from '../db';
import { NOT_BLOCKED } from '../domain/rules';

/** A conversation with all its messages, oldest first (the data export). */
export type ConversationWithMessages = Prisma.ConversationGetPayload<{ include: { messages: true } }>;

export interface NewConversation {
  participant1Id: string;
  participant2Id: string;
  pairKey: string;
  at: Date;
}

/** A conversation of a person being erased, as its erasure reads it. */
export interface ErasedPersonsConversationRow {
  id: string;
  participant1_id: string;
  participant2_id: string;
  erased_participant_id: string | null;
}

/** Reads and writes of the conversations table. */
export const conversationsRepository = {
  findById(db: Db, id: string): Promise<Conversation | null> {
    return db.conversation.findUnique({ where: { id } });
  },

  findByPair(db: Db, pairKey: string): Promise<Conversation | null> {
    return db.conversation.findUnique({ where: { pairKey } });
  },

  /** The pair's conversation, which must exist (read back after insertIfAbsent). */
  getByPair(db: Db, pairKey: string): Promise<Conversation> {
    return db.conversation.findUniqueOrThrow({ where: { pairKey } });
  },

  /** In no particular order. */
  findByIds(db: Db, ids: string[]): Promise<Conversation[]> {
    return db.conversation.findMany({ where: { id: { in: ids } } });
  },

  /**
   * The ids of the viewer's conversations, latest activity first after the
   * cursor: those with a message, and the empty ones the viewer started; none
   * of a pair a block separates.
   */
  async listIdsOf(db: Db, viewerId: string, cursor: TimeCursor | null, limit: number): Promise<string[]> {
    const rows = await queryRows<Array<{ id: string }>>(
      db,
      sql`
      SELECT c.id FROM conversations c
       WHERE (c.participant1_id = ${viewerId}::uuid OR c.participant2_id = ${viewerId}::uuid)
         AND (c.last_message_id IS NOT NULL OR c.participant1_id = ${viewerId}::uuid)
         AND ${NOT_BLOCKED}
         ${cursor ? sql`AND (c.activity_at, c.id) < (${new Date(cursor.at)}::timestamptz, ${cursor.id}::uuid)` : sql``}
       ORDER BY c.activity_at DESC, c.id DESC
       LIMIT ${limit}`,
    );
    return rows.map((r) => r.id);
  },

  /** ON CONFLICT DO NOTHING on the pair: two people starting it at once get the same conversation. True when this call created it. */
  async insertIfAbsent(db: Db, c: NewConversation): Promise<boolean> {
    const { count } = await db.conversation.createMany({
      data: [{ participant1Id: c.participant1Id, participant2Id: c.participant2Id, pairKey: c.pairKey, activityAt: c.at, createdAt: c.at }],
      skipDuplicates: true,
    });
    return count === 1;
  },

  /** Locks the conversation's row for the rest of the transaction (concurrent sends go one after the other), and reads it. */
  async lockById(tx: Prisma.TransactionClient, id: string): Promise<Conversation> {
    await queryRows(tx, sql`SELECT id FROM conversations WHERE id = ${id}::uuid FOR UPDATE`);
    return tx.conversation.findUniqueOrThrow({ where: { id } });
  },

  /** The conversation's last message, which also makes it the latest activity. */
  async recordLastMessage(db: Db, id: string, message: { id: string; createdAt: Date }): Promise<void> {
    await db.conversation.update({ where: { id }, data: { lastMessageId: message.id, lastMessageAt: message.createdAt, activityAt: message.createdAt } });
  },

  /** Every conversation of the person, oldest first, each with its messages oldest first. */
  listWithMessagesOf(db: Db, userId: string): Promise<ConversationWithMessages[]> {
    return db.conversation.findMany({
      where: { OR: [{ participant1Id: userId }, { participant2Id: userId }] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { messages: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
    });
  },

  /** The person's conversations in id order, locked for the rest of the transaction. */
  lockAllOf(tx: Prisma.TransactionClient, userId: string): Promise<ErasedPersonsConversationRow[]> {
    return queryRows<ErasedPersonsConversationRow[]>(
      tx,
      sql`SELECT id::text AS id, participant1_id::text AS participant1_id, participant2_id::text AS participant2_id,
            erased_participant_id::text AS erased_participant_id
       FROM conversations WHERE participant1_id = ${userId}::uuid OR participant2_id = ${userId}::uuid ORDER BY id FOR UPDATE`,
    );
  },

  async delete(db: Db, id: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM conversations WHERE id = ${id}::uuid`);
  },

  /**
   * Puts `standIn` in place of the erased `userId` (recorded as
   * `erased_participant_id`), with the pair key that goes with it and `last`
   * as the last message and latest activity.
   */
  async replaceErasedParticipant(
    db: Db,
    id: string,
    change: { userId: string; standIn: string; pairKey: string; last: { id: string; created_at: Date } },
  ): Promise<void> {
    const { userId, standIn, pairKey, last } = change;
    await executeSql(
      db,
      sql`UPDATE conversations
          SET participant1_id = CASE WHEN participant1_id = ${userId}::uuid THEN ${standIn}::uuid ELSE participant1_id END,
              participant2_id = CASE WHEN participant2_id = ${userId}::uuid THEN ${standIn}::uuid ELSE participant2_id END,
              pair_key = ${pairKey}, erased_participant_id = ${standIn}::uuid,
              last_message_id = ${last.id}::uuid, last_message_at = ${last.created_at}::timestamptz, activity_at = ${last.created_at}::timestamptz
        WHERE id = ${id}::uuid`,
    );
  },
};
