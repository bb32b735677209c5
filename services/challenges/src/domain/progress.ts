import type { EventData } from '@hoptrack/proto';
import { anyErased, type Outbox, type SqlClient } from '@hoptrack/runtime';
import { factsRepository, type FactTable } from '../repositories/facts.repository';
import { participationsRepository, type RecomputedRow } from '../repositories/participations.repository';
import { progressSql } from './rules';

/** A fact's owner and when it happened: the person whose challenges to recompute, and which window it falls in. */
export interface Touched {
  userId: string;
  at: Date;
}

/**
 * Keeps the facts progress is computed from (sessions, reviews, album
 * photos), and recomputes a person's challenges after each change. Every
 * method runs in the caller's transaction: the consumer's, which also records
 * the event as processed, so an event's effect and its "done" commit together.
 */
export class Progress {
  constructor(private readonly outbox: Outbox) {}

  /**
   * Serialises one person's recomputes across consumers and copies: two
   * events of the same person in flight at once (a session and a review)
   * would each compute from a snapshot without the other's fact.
   */
  async lock(tx: SqlClient, userId: string): Promise<void> {
    await participationsRepository.lockProgress(tx, userId);
  }

  /**
   * The lock, then whether the person was erased meanwhile (issue 24): the
   * inbox's guard looked before the lock, and an erasure holding it commits
   * its tombstone before letting go, so this look sees it. An erased person's
   * fact is not written (their recompute then finds no challenge of theirs).
   */
  private async lockLiving(tx: SqlClient, userId: string): Promise<boolean> {
    await this.lock(tx, userId);
    return !(await anyErased(tx, [userId]));
  }

  /** A session's newest state; an older update or a create after its delete changes nothing. */
  async session(tx: SqlClient, facts: EventData<'session.created.v1'>): Promise<Touched> {
    if (!(await this.lockLiving(tx, facts.userId))) return { userId: facts.userId, at: new Date(facts.createdAt) };
    const styles = [...new Set((facts.beerTypes ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))];
    const place = facts.location?.trim().toLowerCase() || null;
    await factsRepository.saveSession(tx, {
      sessionId: facts.sessionId,
      userId: facts.userId,
      styles,
      place,
      hasMusic: facts.hasMusic ?? false,
      beerCount: facts.beerCount,
      duration: facts.duration,
      createdAt: facts.createdAt,
      updatedAt: facts.updatedAt,
      version: facts.version ?? 0,
    });
    return { userId: facts.userId, at: new Date(facts.createdAt) };
  }

  /** Tombstones a fact (kept, marked deleted), inserting the tombstone if the fact never arrived. */
  async forget(tx: SqlClient, table: FactTable, id: string, userId: string, at: Date): Promise<Touched> {
    if (!(await this.lockLiving(tx, userId))) return { userId, at };
    const happened = await factsRepository.tombstone(tx, table, id, userId, at);
    return { userId, at: happened ?? at };
  }

  /** A review or an album photo: a fact of when, never changed after. */
  async record(tx: SqlClient, table: 'review_facts' | 'photo_facts', id: string, userId: string, at: Date): Promise<Touched> {
    if (!(await this.lockLiving(tx, userId))) return { userId, at };
    await factsRepository.record(tx, table, id, userId, at);
    return { userId, at };
  }

  /**
   * Recomputes the person's challenges that a fact at `touched.at` may move:
   * the open ones still running at `now`, and every one whose day the fact
   * fell in (a late event still counts for its day; a deleted fact may have
   * been what completed it). A challenge that reaches its target completes
   * here and publishes `challenge.completed.v1`; a completed one that falls
   * below it is taken back and publishes `challenge.completion.withdrawn.v1`.
   * The update changes a row only as it read it, so of two recomputes only
   * the first completes or withdraws it, and a completion still at its
   * target is never announced again.
   */
  async recompute(tx: SqlClient, touched: Touched, now: Date, requestId?: string): Promise<void> {
    const recomputed = await participationsRepository.recompute(tx, touched.userId, progressSql, now, touched.at);
    for (const row of recomputed) await this.announce(tx, row, requestId);
  }

  /** The event of a row whose completion changed; none for one that moved and stayed open. */
  private async announce(tx: SqlClient, row: RecomputedRow, requestId?: string): Promise<void> {
    if (row.was_completed && !row.is_completed) {
      await this.outbox.enqueue(tx, 'challenge.completion.withdrawn.v1', { challengeId: row.challenge_id, userId: row.user_id }, requestId);
    } else if (!row.was_completed && row.is_completed && row.completed_at) {
      await this.outbox.enqueue(
        tx,
        'challenge.completed.v1',
        { challengeId: row.challenge_id, userId: row.user_id, title: row.title, date: row.date, completedAt: row.completed_at.toISOString() },
        requestId,
      );
    }
  }
}
