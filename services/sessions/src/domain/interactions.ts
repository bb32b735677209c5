import type { EventData, EventType, LikeResponse, ReactionSummary, SessionComment, SessionLike } from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, forbidden, identifier, joinSql, notFound, queryRows, sql, uuid, type Outbox, type PeopleCache, type Sql } from '@hoptrack/runtime';
import type { Db, PrismaClient } from '../db';
import type { CardRenderer } from '../cards/renderer';
import { commentView, personView, summarise } from './views';
import { assertCanSeeSession, notBlockedWith } from './visibility';

export interface InteractionsDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  /** Tells the relay that events were committed. */
  onEventsCommitted: () => void;
  cards: Pick<CardRenderer, 'dropAfterCommit'>;
  people: PeopleCache;
}

/**
 * The rows of a like, comment or reaction table (aliased `alias`) on the
 * session that the viewer may see: those of people with no block between
 * them and the viewer.
 */
const visibleOn = (viewerId: string, sessionId: string, alias: 'l' | 'c' | 'r'): Sql =>
  sql`${identifier(`${alias}.session_id`)} = ${uuid(sessionId)} AND ${notBlockedWith(uuid(viewerId), identifier(`${alias}.user_id`))}`;

/** What a change wrote, if it changed anything: the event to publish with it. */
type Change = { [T in EventType]: { type: T; data: EventData<T> } }[EventType] | null;

/**
 * Likes, comments and reactions. Every one first checks that the viewer may
 * see the session (404 otherwise), so nobody acts on what they cannot see.
 * Likes and reactions are idempotent through unique keys: liking twice keeps
 * one like and publishes one event. Each change commits with its event
 * (session.liked.v1, …); the card read model drops the session's card after
 * the commit, and again when the event comes back (CardsConsumer), so a Redis
 * fault between the two never leaves a stale card.
 */
export class Interactions {
  constructor(private readonly deps: InteractionsDeps) {}

  private get prisma(): PrismaClient {
    return this.deps.prisma;
  }

  /**
   * Runs a write and its event (if it changed anything) in one transaction,
   * then drops the session's card; answers what the write returned.
   */
  private async change<T = void>(sessionId: string, requestId: string | undefined, write: (tx: Db) => Promise<{ event: Change; value?: T }>): Promise<T | undefined> {
    const { event, value } = await this.prisma.$transaction(async (tx) => {
      const done = await write(tx);
      if (done.event) await this.deps.outbox.enqueue(tx, done.event.type, done.event.data, requestId);
      return done;
    });
    if (event) {
      this.deps.onEventsCommitted();
      await this.deps.cards.dropAfterCommit(sessionId);
    }
    return value;
  }

  async like(userId: string, sessionId: string, requestId?: string): Promise<LikeResponse> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.change(sessionId, requestId, async (tx) => {
      const { count } = await tx.like.createMany({ data: [{ userId, sessionId }], skipDuplicates: true });
      return { event: count > 0 ? { type: 'session.liked.v1', data: { sessionId, ownerId, userId } } : null };
    });
    return { liked: true, likeCount: await this.likeCount(userId, sessionId) };
  }

  async unlike(userId: string, sessionId: string, requestId?: string): Promise<LikeResponse> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.change(sessionId, requestId, async (tx) => {
      const { count } = await tx.like.deleteMany({ where: { userId, sessionId } });
      return { event: count > 0 ? { type: 'session.unliked.v1', data: { sessionId, ownerId, userId } } : null };
    });
    return { liked: false, likeCount: await this.likeCount(userId, sessionId) };
  }

  /** Everyone who liked the session, newest first, a page at a time; people blocked either way left out. */
  async likes(viewerId: string, sessionId: string, cursorText: string | undefined, limit: number): Promise<{ likes: SessionLike[]; next: string | null }> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    const cursor = decodeTimeCursor(cursorText);
    const where = [
      visibleOn(viewerId, sessionId, 'l'),
      ...(cursor ? [sql`(l.created_at, l.id) < (${new Date(cursor.at)}::timestamptz, ${uuid(cursor.id)})`] : []),
    ];
    const rows = await queryRows<Array<{ id: string; user_id: string; created_at: Date }>>(
      this.prisma,
      sql`SELECT l.id, l.user_id, l.created_at FROM likes l
       WHERE ${joinSql(where, ' AND ')}
       ORDER BY l.created_at DESC, l.id DESC LIMIT ${limit + 1}`,
    );
    const page = rows.slice(0, limit);
    const people = await this.deps.people.getMany(page.map((r) => r.user_id));
    const last = page[page.length - 1];
    return {
      likes: page.map((r) => ({ id: r.id, userId: r.user_id, user: personView(r.user_id, people.get(r.user_id)), createdAt: r.created_at.toISOString() })),
      next: rows.length > limit && last ? encodeTimeCursor({ at: last.created_at.getTime(), id: last.id }) : null,
    };
  }

  async comment(userId: string, sessionId: string, content: string, requestId?: string): Promise<SessionComment> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    const created = await this.change(sessionId, requestId, async (tx) => {
      const row = await tx.comment.create({ data: { userId, sessionId, content }, select: { id: true, createdAt: true } });
      return { event: { type: 'session.commented.v1', data: { sessionId, ownerId, userId, commentId: row.id, content } }, value: row };
    });
    if (!created) throw new Error('a comment write always answers its row');
    const user = await this.deps.people.get(userId);
    return commentView({ id: created.id, user_id: userId, session_id: sessionId, content, created_at: created.createdAt }, personView(userId, user ?? undefined));
  }

  /** Oldest first; people blocked either way left out. */
  async comments(viewerId: string, sessionId: string): Promise<SessionComment[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    const rows = await queryRows<Array<{ id: string; user_id: string; session_id: string; content: string; created_at: Date }>>(
      this.prisma,
      sql`SELECT c.id, c.user_id, c.session_id, c.content, c.created_at FROM comments c
       WHERE ${visibleOn(viewerId, sessionId, 'c')} ORDER BY c.created_at, c.id`,
    );
    const users = await this.deps.people.getMany(rows.map((r) => r.user_id));
    return rows.map((r) => commentView(r, personView(r.user_id, users.get(r.user_id))));
  }

  /** The comment's author or the session's owner may delete it. */
  async deleteComment(userId: string, sessionId: string, commentId: string, requestId?: string): Promise<void> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    const comment = await this.prisma.comment.findFirst({ where: { id: commentId, sessionId } });
    if (!comment) throw notFound('Comment not found');
    if (comment.userId !== userId && ownerId !== userId) throw forbidden('You can only delete your own comments');
    await this.change(sessionId, requestId, async (tx) => {
      const { count } = await tx.comment.deleteMany({ where: { id: commentId, sessionId } });
      return { event: count > 0 ? { type: 'session.comment.deleted.v1', data: { sessionId, ownerId, userId, commentId } } : null };
    });
  }

  async reactions(viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    return this.summary(viewerId, sessionId);
  }

  async react(userId: string, sessionId: string, emoji: string, requestId?: string): Promise<ReactionSummary[]> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.change(sessionId, requestId, async (tx) => {
      const { count } = await tx.reaction.createMany({ data: [{ userId, sessionId, emoji }], skipDuplicates: true });
      return { event: count > 0 ? { type: 'session.reacted.v1', data: { sessionId, ownerId, userId, emoji } } : null };
    });
    return this.summary(userId, sessionId);
  }

  async unreact(userId: string, sessionId: string, emoji: string, requestId?: string): Promise<ReactionSummary[]> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.change(sessionId, requestId, async (tx) => {
      const { count } = await tx.reaction.deleteMany({ where: { userId, sessionId, emoji } });
      return { event: count > 0 ? { type: 'session.unreacted.v1', data: { sessionId, ownerId, userId, emoji } } : null };
    });
    return this.summary(userId, sessionId);
  }

  private async likeCount(viewerId: string, sessionId: string): Promise<number> {
    const [row] = await queryRows<Array<{ n: bigint | number }>>(
      this.prisma,
      sql`SELECT count(*) AS n FROM likes l WHERE ${visibleOn(viewerId, sessionId, 'l')}`,
    );
    return Number(row?.n ?? 0);
  }

  /** Every reaction, grouped by emoji, naming everyone (the full list behind a card's summary). */
  private async summary(viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    const rows = await queryRows<Array<{ user_id: string; emoji: string }>>(
      this.prisma,
      sql`SELECT r.user_id, r.emoji FROM reactions r WHERE ${visibleOn(viewerId, sessionId, 'r')} ORDER BY r.created_at, r.id`,
    );
    const users = await this.deps.people.getMany(rows.map((r) => r.user_id));
    return summarise(rows, (id) => personView(id, users.get(id)));
  }
}
