import type { ExportPart } from '@hoptrack/proto';
import { exportPeople } from '@hoptrack/runtime';
import type { Db } from '../db';
import { invitationsRepository, type ExportedInvitation } from '../repositories/invitations.repository';
import { participationsRepository } from '../repositories/participations.repository';

/** A challenge's date (a calendar day, stored as a date) as YYYY-MM-DD. */
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Challenges' part of a data export (issue 24): every challenge the person
 * joined with their progress and completion, and the invitations they sent
 * and received (the challenge, the other person by id, username and display
 * name, the status as the person sees it at `now`, and when). Others'
 * progress in the same challenges stays theirs. Under the app's block rule
 * (exportPeople, issue 39): an invitation from someone in a block with the
 * person is left out, and one the person sent to such a person names them by
 * id only.
 */
export async function exportChallenges(db: Db, userId: string, now: Date = new Date()): Promise<Omit<ExportPart, 'service'>> {
  const [participations, sent, received] = await Promise.all([
    participationsRepository.listForExport(db, userId),
    invitationsRepository.listSentForExport(db, userId),
    invitationsRepository.listReceivedForExport(db, userId),
  ]);
  const people = await exportPeople(db, userId, [...sent.map((i) => i.toUserId), ...received.map((i) => i.fromUserId)]);
  const challengeOf = (c: { id: string; title: string; challengeType: string; targetValue: number; date: Date }) => ({
    id: c.id,
    title: c.title,
    challengeType: c.challengeType,
    targetValue: c.targetValue,
    date: day(c.date),
  });
  const invitation = (i: ExportedInvitation) => ({
    id: i.id,
    challenge: challengeOf(i.challenge),
    status: i.status === 'pending' && now >= i.expiresAt ? 'expired' : i.status,
    createdAt: i.createdAt.toISOString(),
    respondedAt: i.respondedAt?.toISOString() ?? null,
    expiresAt: i.expiresAt.toISOString(),
  });

  return {
    data: {
      participations: participations.map((p) => ({
        challenge: { ...challengeOf(p.challenge), description: p.challenge.description },
        progress: p.progress,
        isCompleted: p.isCompleted,
        completedAt: p.completedAt?.toISOString() ?? null,
        timeZone: p.timeZone,
        windowStart: p.windowStart.toISOString(),
        windowEnd: p.windowEnd.toISOString(),
        joinedAt: p.joinedAt.toISOString(),
      })),
      invitations: {
        sent: sent.map((i) => ({ ...invitation(i), to: people.named(i.toUserId) })),
        received: received.filter((i) => !people.inBlock(i.fromUserId)).map((i) => ({ ...invitation(i), from: people.named(i.fromUserId) })),
      },
    },
    files: [],
  };
}
