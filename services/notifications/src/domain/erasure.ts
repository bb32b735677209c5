import type { Outbox, SqlClient } from '@hoptrack/runtime';
import type { Queue } from 'bullmq';
import { announceChanges } from './notifications';
import type { DigestJob } from '../mail/digests';
import { entriesRepository } from '../repositories/entries.repository';
import { pendingMailsRepository } from '../repositories/pending-mails.repository';
import { sessionRefsRepository } from '../repositories/session-refs.repository';
import { settingsRepository } from '../repositories/settings.repository';

/**
 * Notifications' part of an account deletion (issue 24), in one transaction:
 *
 * - the person's own inbox (entries, contributions, pending mails), settings
 *   (where an unsubscribe link left its mark) and commenter records;
 * - in others' inboxes, every contribution the person made (a like, a
 *   comment, a request, an invitation), an entry left with nobody going as a
 *   retraction's does; every entry about the person (a friend request's
 *   target is its requester) and about the person's sessions, which the
 *   service forgets as it forgets a deleted session;
 * - each other person whose inbox changed hears their new unread count
 *   (notification.changed.v1), as after any event.
 *
 * Challenge titles (challenge_refs) are the catalogue's, nobody's: kept.
 */
export async function eraseNotificationRows(tx: SqlClient, userId: string, outbox: Outbox): Promise<void> {
  const changed = new Set<string>();
  const note = (userIds: readonly string[]) => userIds.forEach((id) => changed.add(id));

  // Their own inbox; pending mails go with its contributions (the cascade), and any left too.
  await entriesRepository.deleteInboxOf(tx, userId);
  await pendingMailsRepository.deleteOwnedBy(tx, userId);
  await settingsRepository.deleteOwnedBy(tx, userId);

  // Their contributions in others' inboxes (a reaction's source is `emoji:actor`: covered by the actor);
  // an entry they leave empty goes, as a retraction's does.
  note(await entriesRepository.deleteContributionsBy(tx, userId));
  // Entries about them (a friend request or a message's entry targets the person) and about their sessions.
  note(await entriesRepository.deleteAboutPerson(tx, userId));
  await sessionRefsRepository.forgetPerson(tx, userId);

  changed.delete(userId);
  // The bells of the others whose inbox changed (the events name only them).
  await announceChanges(outbox, tx, [...changed].sort());
}

/** States a queued job of the person can be in; an active one is left to finish (it finds nothing to send, and removeOnComplete takes it). */
const WAITING_STATES = ['waiting', 'delayed', 'prioritized', 'paused', 'failed', 'completed', 'waiting-children'] as const;

/**
 * The person's mail digest jobs: their data names them. (Job ids carry a hash
 * of the id, not the id, so BullMQ's events stream never names anyone.)
 */
export async function forgetDigestJobs(queue: Queue<DigestJob>, userId: string): Promise<void> {
  const jobs = await queue.getJobs([...WAITING_STATES], 0, -1);
  for (const job of jobs) {
    if (job?.id && (job.data as Partial<DigestJob> | undefined)?.userId === userId) await queue.remove(job.id);
  }
}
