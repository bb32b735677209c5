import type { LikeResponse, ReactionSummary, SessionComment } from '@hoptrack/proto';
import { forbidden, notFound, peopleByIds, personById } from '@hoptrack/runtime';
import type { Db, PrismaClient } from '../db';
import { commentView, personView, summarise } from './hydrate';
import { assertCanSeeSession, notBlockedWith } from './visibility';

/**
 * Likes, comments and reactions. Every one first checks that the viewer may
 * see the session (404 otherwise), so nobody acts on what they cannot see.
 * Likes and reactions are idempotent through unique keys: liking twice keeps
 * one like, reacting twice with one emoji keeps one reaction.
 */
export class Interactions {
  constructor(private readonly prisma: PrismaClient) {}

  async like(userId: string, sessionId: string): Promise<LikeResponse> {
    await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.prisma.like.createMany({ data: [{ userId, sessionId }], skipDuplicates: true });
    return { liked: true, likeCount: await this.likeCount(userId, sessionId) };
  }

  async unlike(userId: string, sessionId: string): Promise<LikeResponse> {
    await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.prisma.like.deleteMany({ where: { userId, sessionId } });
    return { liked: false, likeCount: await this.likeCount(userId, sessionId) };
  }

  async comment(userId: string, sessionId: string, content: string): Promise<SessionComment> {
    await assertCanSeeSession(this.prisma, userId, sessionId);
    const created = await this.prisma.comment.create({ data: { userId, sessionId, content } });
    const user = await personById(this.prisma, userId);
    return commentView({ id: created.id, user_id: userId, session_id: sessionId, content, created_at: created.createdAt }, personView(userId, user ?? undefined));
  }

  /** Oldest first; people blocked either way left out. */
  async comments(viewerId: string, sessionId: string): Promise<SessionComment[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    const rows = await this.prisma.$queryRawUnsafe<Array<{ id: string; user_id: string; session_id: string; content: string; created_at: Date }>>(
      `SELECT c.id, c.user_id, c.session_id, c.content, c.created_at FROM comments c
       WHERE c.session_id = $2::uuid AND ${notBlockedWith('$1::uuid', 'c.user_id')} ORDER BY c.created_at, c.id`,
      viewerId,
      sessionId,
    );
    const users = await peopleByIds(this.prisma, rows.map((r) => r.user_id));
    return rows.map((r) => commentView(r, personView(r.user_id, users.get(r.user_id))));
  }

  /** The comment's author or the session's owner may delete it. */
  async deleteComment(userId: string, sessionId: string, commentId: string): Promise<void> {
    const { userId: owner } = await assertCanSeeSession(this.prisma, userId, sessionId);
    const comment = await this.prisma.comment.findFirst({ where: { id: commentId, sessionId } });
    if (!comment) throw notFound('Comment not found');
    if (comment.userId !== userId && owner !== userId) throw forbidden('You can only delete your own comments');
    await this.prisma.comment.delete({ where: { id: commentId } });
  }

  async reactions(viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    await assertCanSeeSession(this.prisma, viewerId, sessionId);
    return this.summary(this.prisma, viewerId, sessionId);
  }

  async react(userId: string, sessionId: string, emoji: string): Promise<ReactionSummary[]> {
    await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.prisma.reaction.createMany({ data: [{ userId, sessionId, emoji }], skipDuplicates: true });
    return this.summary(this.prisma, userId, sessionId);
  }

  async unreact(userId: string, sessionId: string, emoji: string): Promise<ReactionSummary[]> {
    await assertCanSeeSession(this.prisma, userId, sessionId);
    await this.prisma.reaction.deleteMany({ where: { userId, sessionId, emoji } });
    return this.summary(this.prisma, userId, sessionId);
  }

  private async likeCount(viewerId: string, sessionId: string): Promise<number> {
    const [row] = await this.prisma.$queryRawUnsafe<Array<{ n: bigint | number }>>(
      `SELECT count(*) AS n FROM likes l WHERE l.session_id = $2::uuid AND ${notBlockedWith('$1::uuid', 'l.user_id')}`,
      viewerId,
      sessionId,
    );
    return Number(row?.n ?? 0);
  }

  private async summary(db: Db, viewerId: string, sessionId: string): Promise<ReactionSummary[]> {
    const rows = await db.$queryRawUnsafe<Array<{ user_id: string; emoji: string }>>(
      `SELECT r.user_id, r.emoji FROM reactions r WHERE r.session_id = $2::uuid AND ${notBlockedWith('$1::uuid', 'r.user_id')} ORDER BY r.created_at, r.id`,
      viewerId,
      sessionId,
    );
    const users = await peopleByIds(db, rows.map((r) => r.user_id));
    return summarise(rows, (id) => personView(id, users.get(id)));
  }
}
