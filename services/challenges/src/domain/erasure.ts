import type { SqlClient } from '@hoptrack/runtime';
import { factsRepository } from '../repositories/facts.repository';
import { invitationsRepository } from '../repositories/invitations.repository';
import { participationsRepository } from '../repositories/participations.repository';
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
  await invitationsRepository.deleteInvolving(tx, userId);
  await participationsRepository.deleteOwnedBy(tx, userId);
  await factsRepository.deleteOwnedBy(tx, userId);
}
