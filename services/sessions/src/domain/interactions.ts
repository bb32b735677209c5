import type { EventData, EventType, LikeResponse, ReactionSummary, SessionComment, SessionLike } from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, forbidden, notFound, type Outbox, type PeopleCache } from '@hoptrack/runtime';
import type { Db, PrismaClient } from '../db';
import type { CardRenderer } from '../cards/renderer';
import { interactionsRepository } from '../repositories/interactions.repository';
import { commentView, personView, summarise } from './views';
import { assertCanSeeSession } from './visibility';

export interface InteractionsDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  /** Tells the relay that events were committed. */
  onEventsCommitted: () => void;
  cards: Pick<CardRenderer, 'dropAfterCommit'>;
  people: PeopleCache;
}

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

  /**
   * Adds or removes a like or reaction: `write` answers whether it changed
   * anything (adding twice, removing what is not there, change nothing), and
   * only a change publishes its event.
   */
  private async toggle(userId: string, sessionId: string, requestId: string | undefined, write: (tx: Db) => Promise<boolean>, event: (ownerId: string) => NonNullable<Change>): Promise<void> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.change(sessionId, requestId, async (tx) => ({ event: (await write(tx)) ? event(ownerId) : null }));
  }

  async like(userId: string, sessionId: string, requestId?: string): Promise<LikeResponse> {
    const event = (ownerId: string): NonNullable<Change> => ({ type: 'session.liked.v1', data: { sessionId, ownerId, userId } });
    await this.toggle(userId, sessionId, requestId, (tx) => interactionsRepository.addLike(tx, userId, sessionId), event);
    return { liked: true, likeCount: await this.likeCount(userId, sessionId) };
  }

  async unlike(userId: string, sessionId: string, requestId?: string): Promise<LikeResponse> {
    const event = (ownerId: string): NonNullable<Change> => ({ type: 'session.unliked.v1', data: { sessionId, ownerId, userId } });
    await this.toggle(userId, sessionId, requestId, (tx) => interactionsRepository.removeLike(tx, userId, sessionId), event);
    return { liked: false, likeCount: await this.likeCount(userId, sessionId) };
  }

  /** Everyone who liked the session, newest first, a page at a time; people blocked either way left out. */
  async likes(viewerId: string, sessionId: string, cursorText: string | undefined, limit: number): Promise<{ likes: SessionLike[]; next: string | null }> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    // One more than the page: whether there is a next one.
    const rows = await interactionsRepository.listVisibleLikes(this.prisma, viewerId, sessionId, decodeTimeCursor(cursorText), limit + 1);
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
      const row = await interactionsRepository.addComment(tx, userId, sessionId, content);
      return { event: { type: 'session.commented.v1', data: { sessionId, ownerId, userId, commentId: row.id, content } }, value: row };
    });
    if (!created) throw new Error('a comment write always answers its row');
    const user = await this.deps.people.get(userId);
    return commentView({ id: created.id, user_id: userId, session_id: sessionId, content, created_at: created.createdAt, edited_at: null }, personView(userId, user ?? undefined));
  }

  /** Oldest first; people blocked either way left out. */
  async comments(viewerId: string, sessionId: string): Promise<SessionComment[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    const rows = await interactionsRepository.listVisibleComments(this.prisma, viewerId, sessionId);
    const users = await this.deps.people.getMany(rows.map((r) => r.user_id));
    return rows.map((r) => commentView(r, personView(r.user_id, users.get(r.user_id))));
  }

  /** Only the comment's author may edit it (the session's owner may delete it, not put words in its author's mouth). */
  async editComment(userId: string, sessionId: string, commentId: string, content: string, requestId?: string): Promise<SessionComment> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    const comment = await interactionsRepository.findComment(this.prisma, sessionId, commentId);
    if (!comment) throw notFound('Comment not found');
    if (comment.userId !== userId) throw forbidden('You can only edit your own comments');
    const edited = await this.change(sessionId, requestId, async (tx) => {
      const row = await interactionsRepository.editComment(tx, sessionId, commentId, content);
      return { event: row ? { type: 'session.comment.edited.v1', data: { sessionId, ownerId, userId, commentId, content } } : null, value: row };
    });
    if (!edited) throw notFound('Comment not found');
    return commentView(edited, personView(userId, (await this.deps.people.get(userId)) ?? undefined));
  }

  /** The comment's author or the session's owner may delete it. */
  async deleteComment(userId: string, sessionId: string, commentId: string, requestId?: string): Promise<void> {
    const { userId: ownerId } = await assertCanSeeSession(this.prisma, userId, sessionId);
    const comment = await interactionsRepository.findComment(this.prisma, sessionId, commentId);
    if (!comment) throw notFound('Comment not found');
    if (comment.userId !== userId && ownerId !== userId) throw forbidden('You can only delete your own comments');
    await this.change(sessionId, requestId, async (tx) => {
      const deleted = await interactionsRepository.deleteComment(tx, sessionId, commentId);
      return { event: deleted ? { type: 'session.comment.deleted.v1', data: { sessionId, ownerId, userId, commentId } } : null };
    });
  }

  async reactions(viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    return this.summary(viewerId, sessionId);
  }

  async react(userId: string, sessionId: string, emoji: string, requestId?: string): Promise<ReactionSummary[]> {
    const event = (ownerId: string): NonNullable<Change> => ({ type: 'session.reacted.v1', data: { sessionId, ownerId, userId, emoji } });
    await this.toggle(userId, sessionId, requestId, (tx) => interactionsRepository.addReaction(tx, userId, sessionId, emoji), event);
    return this.summary(userId, sessionId);
  }

  async unreact(userId: string, sessionId: string, emoji: string, requestId?: string): Promise<ReactionSummary[]> {
    const event = (ownerId: string): NonNullable<Change> => ({ type: 'session.unreacted.v1', data: { sessionId, ownerId, userId, emoji } });
    await this.toggle(userId, sessionId, requestId, (tx) => interactionsRepository.removeReaction(tx, userId, sessionId, emoji), event);
    return this.summary(userId, sessionId);
  }

  private likeCount(viewerId: string, sessionId: string): Promise<number> {
    return interactionsRepository.countVisibleLikes(this.prisma, viewerId, sessionId);
  }

  /** Every reaction, grouped by emoji, naming everyone (the full list behind a card's summary). */
  private async summary(viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    const rows = await interactionsRepository.listVisibleReactions(this.prisma, viewerId, sessionId);
    const users = await this.deps.people.getMany(rows.map((r) => r.user_id));
    return summarise(rows, (id) => personView(id, users.get(id)));
  }
}
