import type { SqlClient } from '@hoptrack/runtime';
import type { Progress } from './progress';

/**
 * Challenges' part of an account deletion (issue 24): the person's
 * challenges (user_challenges), every invitation they sent or received, and
 * the facts kept of their sessions, reviews and album photos, tombstones
 * included: a tombstone kept a late create from bringing a deleted fact back,
 * and for an erased person the runtime's erased_people does that for every
 * event naming them (the inbox skips it), without naming them. Under the
 * person's progress lock, so a recompute in flight finishes first and none
 * starts from half the rows. Nobody else's progress counts another person's
 * facts, so no one else's row changes; the daily challenges are nobody's.
 */
export async function eraseChallengeRows(tx: SqlClient, userId: string, progress: Pick<Progress, 'lock'>): Promise<void> {
  await progress.lock(tx, userId);
  await tx.$executeRawUnsafe('DELETE FROM challenge_invitations WHERE from_user_id = $1::uuid OR to_user_id = $1::uuid', userId);
  await tx.$executeRawUnsafe('DELETE FROM user_challenges WHERE user_id = $1::uuid', userId);
  for (const table of ['session_facts', 'review_facts', 'photo_facts']) {
    await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE user_id = $1::uuid`, userId);
  }
}
