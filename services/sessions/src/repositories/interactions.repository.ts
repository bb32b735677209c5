import { identifier, joinSql, queryRows, sql, uuid, type Sql, type TimeCursor } from '@hoptrack/runtime';
import type { Comment, Db, Prisma } from '../db';
import { notBlockedWith } from '../domain/visibility';

export interface LikeRow {
  id: string;
  user_id: string;
  created_at: Date;
}

export interface CommentRow {
  id: string;
  user_id: string;
  session_id: string;
  content: string;
  created_at: Date;
  edited_at: Date | null;
}

export interface ReactionRow {
  user_id: string;
  emoji: string;
}

/** What the person left on someone else's session, with that session's author (the data export). */
type OnOthersSession = { include: { session: { select: { userId: true } } } };
export type LikeOnOthersSession = Prisma.LikeGetPayload<OnOthersSession>;
export type CommentOnOthersSession = Prisma.CommentGetPayload<OnOthersSession>;
export type ReactionOnOthersSession = Prisma.ReactionGetPayload<OnOthersSession>;

/**
 * The rows of a like, comment or reaction table (aliased `alias`) on the
 * session that the viewer may see: those of people with no block between
 * them and the viewer.
 */
const visibleOn = (viewerId: string, sessionId: string, alias: 'l' | 'c' | 'r'): Sql =>
  sql`${identifier(`${alias}.session_id`)} = ${uuid(sessionId)} AND ${notBlockedWith(uuid(viewerId), identifier(`${alias}.user_id`))}`;

/** Reads and writes of likes, comments and reactions. Adding twice (unique keys) and removing what is not there change nothing: each write answers whether it did. */
export const interactionsRepository = {
  async addLike(db: Db, userId: string, sessionId: string): Promise<boolean> {
    const { count } = await db.like.createMany({ data: [{ userId, sessionId }], skipDuplicates: true });
    return count > 0;
  },

  async removeLike(db: Db, userId: string, sessionId: string): Promise<boolean> {
    const { count } = await db.like.deleteMany({ where: { userId, sessionId } });
    return count > 0;
  },

  /** The session's likes the viewer may see, newest first, after `cursor` (exclusive). */
  listVisibleLikes(db: Db, viewerId: string, sessionId: string, cursor: TimeCursor | null, limit: number): Promise<LikeRow[]> {
    const where = [
      visibleOn(viewerId, sessionId, 'l'),
      ...(cursor ? [sql`(l.created_at, l.id) < (${new Date(cursor.at)}::timestamptz, ${uuid(cursor.id)})`] : []),
    ];
    return queryRows<LikeRow[]>(
      db,
      sql`SELECT l.id, l.user_id, l.created_at FROM likes l
       WHERE ${joinSql(where, ' AND ')}
       ORDER BY l.created_at DESC, l.id DESC LIMIT ${limit}`,
    );
  },

  async countVisibleLikes(db: Db, viewerId: string, sessionId: string): Promise<number> {
    const [row] = await queryRows<Array<{ n: bigint | number }>>(db, sql`SELECT count(*) AS n FROM likes l WHERE ${visibleOn(viewerId, sessionId, 'l')}`);
    return Number(row?.n ?? 0);
  },

  /** Likes per session the viewer may see; sessions without any are missing. */
  async countVisibleLikesPerSession(db: Db, viewerId: string, sessionIds: string[]): Promise<Map<string, number>> {
    const counts = await queryRows<Array<{ session_id: string; n: bigint | number }>>(
      db,
      sql`SELECT l.session_id, count(*) AS n FROM likes l
          WHERE l.session_id = ANY(${sessionIds}::uuid[]) AND ${notBlockedWith(uuid(viewerId), identifier('l.user_id'))} GROUP BY l.session_id`,
    );
    return new Map(counts.map((c) => [c.session_id, Number(c.n)]));
  },

  addComment(db: Db, userId: string, sessionId: string, content: string): Promise<{ id: string; createdAt: Date }> {
    return db.comment.create({ data: { userId, sessionId, content }, select: { id: true, createdAt: true } });
  },

  findComment(db: Db, sessionId: string, commentId: string): Promise<Comment | null> {
    return db.comment.findFirst({ where: { id: commentId, sessionId } });
  },

  /** Its new text and the edit's time (the database's clock, as created_at); null when it is gone. */
  async editComment(db: Db, sessionId: string, commentId: string, content: string): Promise<CommentRow | null> {
    const [row] = await queryRows<CommentRow[]>(
      db,
      sql`UPDATE comments SET content = ${content}, edited_at = now() WHERE id = ${uuid(commentId)} AND session_id = ${uuid(sessionId)}
       RETURNING id, user_id, session_id, content, created_at, edited_at`,
    );
    return row ?? null;
  },

  async deleteComment(db: Db, sessionId: string, commentId: string): Promise<boolean> {
    const { count } = await db.comment.deleteMany({ where: { id: commentId, sessionId } });
    return count > 0;
  },

  /** The session's comments the viewer may see, oldest first. */
  listVisibleComments(db: Db, viewerId: string, sessionId: string): Promise<CommentRow[]> {
    return queryRows<CommentRow[]>(
      db,
      sql`SELECT c.id, c.user_id, c.session_id, c.content, c.created_at, c.edited_at FROM comments c
       WHERE ${visibleOn(viewerId, sessionId, 'c')} ORDER BY c.created_at, c.id`,
    );
  },

  async addReaction(db: Db, userId: string, sessionId: string, emoji: string): Promise<boolean> {
    const { count } = await db.reaction.createMany({ data: [{ userId, sessionId, emoji }], skipDuplicates: true });
    return count > 0;
  },

  async removeReaction(db: Db, userId: string, sessionId: string, emoji: string): Promise<boolean> {
    const { count } = await db.reaction.deleteMany({ where: { userId, sessionId, emoji } });
    return count > 0;
  },

  /** The session's reactions the viewer may see, oldest first. */
  listVisibleReactions(db: Db, viewerId: string, sessionId: string): Promise<ReactionRow[]> {
    return queryRows<ReactionRow[]>(
      db,
      sql`SELECT r.user_id, r.emoji FROM reactions r WHERE ${visibleOn(viewerId, sessionId, 'r')} ORDER BY r.created_at, r.id`,
    );
  },

  /** The person's likes on others' sessions, oldest first. */
  likesOnOthersSessions(db: Db, userId: string): Promise<LikeOnOthersSession[]> {
    return db.like.findMany({ where: { userId, session: { userId: { not: userId } } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { session: { select: { userId: true } } } });
  },

  /** The person's comments on others' sessions, oldest first. */
  commentsOnOthersSessions(db: Db, userId: string): Promise<CommentOnOthersSession[]> {
    return db.comment.findMany({ where: { userId, session: { userId: { not: userId } } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { session: { select: { userId: true } } } });
  },

  /** The person's reactions on others' sessions, oldest first. */
  reactionsOnOthersSessions(db: Db, userId: string): Promise<ReactionOnOthersSession[]> {
    return db.reaction.findMany({ where: { userId, session: { userId: { not: userId } } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { session: { select: { userId: true } } } });
  },
};
