import type { EventData } from '@hoptrack/proto';
import { anyErased, type Outbox, type SqlClient } from '@hoptrack/runtime';
import { progressSql } from './rules';

/** A fact's owner and when it happened: the person whose challenges to recompute, and which window it falls in. */
export interface Touched {
  userId: string;
  at: Date;
}

interface Recomputed {
  challenge_id: string;
  is_completed: boolean;
  user_id: string;
  completed_at: Date | null;
  title: string;
  date: string;
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
    await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 23))::text AS locked`, userId);
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
    await tx.$executeRawUnsafe(
      `INSERT INTO session_facts (session_id, user_id, beer_types, place, has_music, beer_count, duration, created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::text[], $4, $5, $6, $7, $8::timestamptz, $9::timestamptz)
       ON CONFLICT (session_id) DO UPDATE SET beer_types = EXCLUDED.beer_types, place = EXCLUDED.place, has_music = EXCLUDED.has_music,
         beer_count = EXCLUDED.beer_count, duration = EXCLUDED.duration, updated_at = EXCLUDED.updated_at
       WHERE NOT session_facts.deleted AND session_facts.updated_at <= EXCLUDED.updated_at`,
      facts.sessionId,
      facts.userId,
      styles,
      place,
      facts.hasMusic ?? false,
      facts.beerCount,
      facts.duration,
      facts.createdAt,
      facts.updatedAt,
    );
    return { userId: facts.userId, at: new Date(facts.createdAt) };
  }

  /** Tombstones a fact (kept, marked deleted), inserting the tombstone if the fact never arrived. */
  async forget(tx: SqlClient, table: 'session_facts' | 'review_facts' | 'photo_facts', id: string, userId: string, at: Date): Promise<Touched> {
    if (!(await this.lockLiving(tx, userId))) return { userId, at };
    const [key, extra, values] =
      table === 'session_facts'
        ? ['session_id', ', beer_count, duration, updated_at', ', 0, 0, $3::timestamptz']
        : table === 'review_facts'
          ? ['review_id', '', '']
          : ['photo_id', '', ''];
    const rows = await tx.$queryRawUnsafe<Array<{ created_at: Date }>>(
      `INSERT INTO ${table} (${key}, user_id, created_at, deleted${extra}) VALUES ($1::uuid, $2::uuid, $3::timestamptz, true${values})
       ON CONFLICT (${key}) DO UPDATE SET deleted = true RETURNING created_at`,
      id,
      userId,
      at.toISOString(),
    );
    return { userId, at: rows[0]?.created_at ?? at };
  }

  /** A review or an album photo: a fact of when, never changed after. */
  async record(tx: SqlClient, table: 'review_facts' | 'photo_facts', id: string, userId: string, at: Date): Promise<Touched> {
    if (!(await this.lockLiving(tx, userId))) return { userId, at };
    const key = table === 'review_facts' ? 'review_id' : 'photo_id';
    await tx.$executeRawUnsafe(
      `INSERT INTO ${table} (${key}, user_id, created_at) VALUES ($1::uuid, $2::uuid, $3::timestamptz) ON CONFLICT (${key}) DO NOTHING`,
      id,
      userId,
      at.toISOString(),
    );
    return { userId, at };
  }

  /**
   * Recomputes the person's open challenges that a fact at `touched.at` may
   * move: those still running at `now`, and the one whose day the fact fell in
   * (a late event still counts for its day). A challenge that reaches its
   * target completes here, once: the update skips completed rows, so of two
   * recomputes only the first completes it and publishes `challenge.completed.v1`.
   */
  async recompute(tx: SqlClient, touched: Touched, now: Date, requestId?: string): Promise<void> {
    const recomputed = await tx.$queryRawUnsafe<Recomputed[]>(
      `WITH fresh AS (
         SELECT uc.id, ${progressSql} AS progress, dc.target_value, dc.title, to_char(dc.date, 'YYYY-MM-DD') AS date
           FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
          WHERE uc.user_id = $1::uuid AND NOT uc.is_completed
            AND (uc.window_end > $2::timestamptz OR (uc.window_start <= $3::timestamptz AND uc.window_end > $3::timestamptz))
       )
       UPDATE user_challenges uc
          SET progress = fresh.progress,
              is_completed = fresh.progress >= fresh.target_value,
              completed_at = CASE WHEN fresh.progress >= fresh.target_value THEN $2::timestamptz END
         FROM fresh
        WHERE uc.id = fresh.id AND NOT uc.is_completed
        RETURNING uc.challenge_id::text, uc.user_id::text, uc.is_completed, uc.completed_at, fresh.title, fresh.date`,
      touched.userId,
      now.toISOString(),
      touched.at.toISOString(),
    );
    for (const row of recomputed) {
      if (!row.is_completed || !row.completed_at) continue;
      await this.outbox.enqueue(
        tx,
        'challenge.completed.v1',
        { challengeId: row.challenge_id, userId: row.user_id, title: row.title, date: row.date, completedAt: row.completed_at.toISOString() },
        requestId,
      );
    }
  }
}
