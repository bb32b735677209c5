import { CHALLENGE_INVITATIONS_MAX, CHALLENGE_MESSAGES, type AnswerInvitationBody, type ChallengeInvitation, type ChallengeInvitations } from '@hoptrack/proto';
import { badRequest, blockedBetween, conflict, forbidden, notFound, type Outbox, type SqlClient } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { audienceRepository } from '../repositories/audience.repository';
import { invitationsRepository, type InvitationRow } from '../repositories/invitations.repository';
import { participationsRepository } from '../repositories/participations.repository';
import type { Challenges } from './challenges';
import { UTC } from './challenges';
import type { Clock } from './clock';
import { challengePeople } from './people';

/** Invitations listed per side: the newest; older ones have expired long ago. */
const LIST_MAX = 50;

/**
 * Inviting friends to a challenge and answering. Only friends can be
 * invited (a block ends a friendship, so never a blocked person), once per
 * challenge each, at most CHALLENGE_INVITATIONS_MAX per challenge; only the
 * invited person answers; an invitation expires with the inviter's day.
 */
export class Invitations {
  constructor(
    private readonly deps: { prisma: PrismaClient; challenges: Challenges; outbox: Outbox; clock: Clock; onEventsCommitted: () => void },
  ) {}

  /** Inviting joins the inviter too (in `timeZone`, if not in already): one invites to something one does. */
  async invite(fromUserId: string, challengeId: string, toUserId: string, timeZone = UTC, requestId?: string): Promise<ChallengeInvitation> {
    if (fromUserId === toUserId) throw badRequest(CHALLENGE_MESSAGES.self, 'friendId');
    const id = await this.deps.prisma.$transaction(async (tx) => {
      const friends = await audienceRepository.areFriendsUnblocked(tx, fromUserId, toUserId);
      const { windowEnd } = await this.deps.challenges.joinIn(tx, fromUserId, challengeId, timeZone, requestId);
      if (!friends) throw forbidden(CHALLENGE_MESSAGES.friendsOnly);
      if (this.deps.clock() >= windowEnd) throw conflict(CHALLENGE_MESSAGES.ended);
      // The inviter's row, locked: two invitations at once cannot both pass the cap.
      await participationsRepository.lock(tx, fromUserId, challengeId);
      const state = await invitationsRepository.inviteState(tx, fromUserId, challengeId, toUserId);
      if (state?.duplicate) throw conflict(CHALLENGE_MESSAGES.duplicate, 'friendId');
      if (state?.joined) throw conflict(CHALLENGE_MESSAGES.alreadyIn, 'friendId');
      if ((state?.sent ?? 0) >= CHALLENGE_INVITATIONS_MAX) throw conflict(CHALLENGE_MESSAGES.cap, 'friendId');
      const created = await invitationsRepository.create(tx, { fromUserId, toUserId, challengeId, expiresAt: windowEnd });
      if (!created) throw new Error('invitation insert returned nothing');
      await this.deps.outbox.enqueue(tx, 'challenge.invited.v1', { invitationId: created.id, challengeId, fromUserId, toUserId, title: created.title }, requestId);
      return created.id;
    });
    this.deps.onEventsCommitted();
    return this.one(this.deps.prisma, id);
  }

  /** Received and sent, newest first, without anyone blocked either way. */
  async list(viewerId: string): Promise<ChallengeInvitations> {
    const [received, sent] = await Promise.all([
      invitationsRepository.listFor(this.deps.prisma, viewerId, 'received', LIST_MAX),
      invitationsRepository.listFor(this.deps.prisma, viewerId, 'sent', LIST_MAX),
    ]);
    const views = await this.views(this.deps.prisma, [...received, ...sent]);
    return { received: views.slice(0, received.length), sent: views.slice(received.length) };
  }

  /** The recipient accepts (and joins, in their zone) or declines; once, before it expires. */
  async answer(viewerId: string, id: string, body: AnswerInvitationBody, requestId?: string): Promise<ChallengeInvitation> {
    await this.deps.prisma.$transaction(async (tx) => {
      const row = await invitationsRepository.lockById(tx, id);
      const involved = row && (row.to_user_id === viewerId || row.from_user_id === viewerId);
      if (!row || !involved || (await blockedBetween(tx, row.from_user_id, row.to_user_id))) throw notFound('Invitation not found');
      if (row.to_user_id !== viewerId) throw forbidden(CHALLENGE_MESSAGES.recipientOnly);
      if (row.status !== 'pending') throw conflict(CHALLENGE_MESSAGES.answered, 'action');
      if (this.deps.clock() >= row.expires_at) throw conflict(CHALLENGE_MESSAGES.expired, 'action');
      const status = body.action === 'accept' ? 'accepted' : 'declined';
      if (status === 'accepted') await this.deps.challenges.joinIn(tx, viewerId, row.challenge_id, body.timeZone ?? UTC, requestId);
      await invitationsRepository.setAnswer(tx, id, status, this.deps.clock());
      await this.deps.outbox.enqueue(
        tx,
        'challenge.invitation.answered.v1',
        { invitationId: id, challengeId: row.challenge_id, fromUserId: row.from_user_id, toUserId: row.to_user_id, status },
        requestId,
      );
    });
    this.deps.onEventsCommitted();
    return this.one(this.deps.prisma, id);
  }

  private async one(db: SqlClient, id: string): Promise<ChallengeInvitation> {
    const row = await invitationsRepository.findById(db, id);
    const [view] = await this.views(db, row ? [row] : []);
    if (!view) throw notFound('Invitation not found');
    return view;
  }

  private async views(db: SqlClient, rows: InvitationRow[]): Promise<ChallengeInvitation[]> {
    const person = await challengePeople(db, rows.flatMap((r) => [r.from_user_id, r.to_user_id]));
    const now = this.deps.clock();
    return rows.map((r) => ({
      id: r.id,
      challenge: { id: r.challenge_id, title: r.title, challengeType: r.challenge_type, targetValue: r.target_value, date: r.date },
      from: person(r.from_user_id),
      to: person(r.to_user_id),
      status: r.status === 'pending' && now >= r.expires_at ? 'expired' : r.status,
      createdAt: r.created_at.toISOString(),
      respondedAt: r.responded_at?.toISOString() ?? null,
      expiresAt: r.expires_at.toISOString(),
    }));
  }
}
