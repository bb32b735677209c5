import {
  CHALLENGE_INVITATIONS_MAX,
  CHALLENGE_MESSAGES,
  type AnswerInvitationBody,
  type ChallengeInvitation,
  type ChallengeInvitations,
  type ChallengeKind,
} from '@hoptrack/proto';
import { audienceSql, badRequest, blockedBetween, conflict, forbidden, identifier, notFound, queryRows, sql, uuid, type Outbox, type SqlClient } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { Challenges } from './challenges';
import { UTC } from './challenges';
import type { Clock } from './clock';
import { challengePeople } from './people';

interface InvitationRow {
  id: string;
  from_user_id: string;
  to_user_id: string;
  challenge_id: string;
  status: 'pending' | 'accepted' | 'declined';
  responded_at: Date | null;
  created_at: Date;
  expires_at: Date;
  title: string;
  challenge_type: ChallengeKind;
  target_value: number;
  date: string;
}

const INVITATION_SELECT = sql`
  SELECT i.id::text, i.from_user_id::text, i.to_user_id::text, i.challenge_id::text, i.status, i.responded_at, i.created_at, i.expires_at,
         dc.title, dc.challenge_type, dc.target_value, to_char(dc.date, 'YYYY-MM-DD') AS date
    FROM challenge_invitations i JOIN daily_challenges dc ON dc.id = i.challenge_id`;

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
      const [from, to] = [uuid(fromUserId), uuid(toUserId)];
      const friends = await queryRows<Array<{ ok: boolean }>>(
        tx,
        sql`SELECT ${audienceSql.friends(from, to)} AND NOT ${audienceSql.blockedBetween(from, to)} AS ok`,
      );
      const { windowEnd } = await this.deps.challenges.joinIn(tx, fromUserId, challengeId, timeZone, requestId);
      if (!friends[0]?.ok) throw forbidden(CHALLENGE_MESSAGES.friendsOnly);
      if (this.deps.clock() >= windowEnd) throw conflict(CHALLENGE_MESSAGES.ended);
      // The inviter's row, locked: two invitations at once cannot both pass the cap.
      await tx.$queryRawUnsafe(`SELECT 1 FROM user_challenges WHERE user_id = $1::uuid AND challenge_id = $2::uuid FOR UPDATE`, fromUserId, challengeId);
      const [state] = await tx.$queryRawUnsafe<Array<{ joined: boolean; sent: number; duplicate: boolean }>>(
        `SELECT EXISTS (SELECT 1 FROM user_challenges WHERE user_id = $3::uuid AND challenge_id = $2::uuid) AS joined,
                (SELECT count(*)::int FROM challenge_invitations WHERE from_user_id = $1::uuid AND challenge_id = $2::uuid) AS sent,
                EXISTS (SELECT 1 FROM challenge_invitations WHERE from_user_id = $1::uuid AND challenge_id = $2::uuid AND to_user_id = $3::uuid) AS duplicate`,
        fromUserId,
        challengeId,
        toUserId,
      );
      if (state?.duplicate) throw conflict(CHALLENGE_MESSAGES.duplicate, 'friendId');
      if (state?.joined) throw conflict(CHALLENGE_MESSAGES.alreadyIn, 'friendId');
      if ((state?.sent ?? 0) >= CHALLENGE_INVITATIONS_MAX) throw conflict(CHALLENGE_MESSAGES.cap, 'friendId');
      const [created] = await tx.$queryRawUnsafe<Array<{ id: string; title: string }>>(
        `INSERT INTO challenge_invitations (id, from_user_id, to_user_id, challenge_id, expires_at)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::timestamptz)
         RETURNING id::text, (SELECT title FROM daily_challenges WHERE id = $3::uuid) AS title`,
        fromUserId,
        toUserId,
        challengeId,
        windowEnd.toISOString(),
      );
      if (!created) throw new Error('invitation insert returned nothing');
      await this.deps.outbox.enqueue(tx, 'challenge.invited.v1', { invitationId: created.id, challengeId, fromUserId, toUserId, title: created.title }, requestId);
      return created.id;
    });
    this.deps.onEventsCommitted();
    return this.one(this.deps.prisma, id);
  }

  /** Received and sent, newest first, without anyone blocked either way. */
  async list(viewerId: string): Promise<ChallengeInvitations> {
    const viewer = uuid(viewerId);
    const side = (column: 'to_user_id' | 'from_user_id', other: 'from_user_id' | 'to_user_id') =>
      queryRows<InvitationRow[]>(
        this.deps.prisma,
        sql`${INVITATION_SELECT} WHERE ${identifier(`i.${column}`)} = ${viewer} AND NOT ${audienceSql.blockedBetween(viewer, identifier(`i.${other}`))}
          ORDER BY i.created_at DESC, i.id LIMIT ${LIST_MAX}`,
      );
    const [received, sent] = await Promise.all([side('to_user_id', 'from_user_id'), side('from_user_id', 'to_user_id')]);
    const views = await this.views(this.deps.prisma, [...received, ...sent]);
    return { received: views.slice(0, received.length), sent: views.slice(received.length) };
  }

  /** The recipient accepts (and joins, in their zone) or declines; once, before it expires. */
  async answer(viewerId: string, id: string, body: AnswerInvitationBody, requestId?: string): Promise<ChallengeInvitation> {
    await this.deps.prisma.$transaction(async (tx) => {
      const [row] = await queryRows<InvitationRow[]>(tx, sql`${INVITATION_SELECT} WHERE i.id = ${uuid(id)} FOR UPDATE OF i`);
      const involved = row && (row.to_user_id === viewerId || row.from_user_id === viewerId);
      if (!row || !involved || (await blockedBetween(tx, row.from_user_id, row.to_user_id))) throw notFound('Invitation not found');
      if (row.to_user_id !== viewerId) throw forbidden(CHALLENGE_MESSAGES.recipientOnly);
      if (row.status !== 'pending') throw conflict(CHALLENGE_MESSAGES.answered, 'action');
      if (this.deps.clock() >= row.expires_at) throw conflict(CHALLENGE_MESSAGES.expired, 'action');
      const status = body.action === 'accept' ? 'accepted' : 'declined';
      if (status === 'accepted') await this.deps.challenges.joinIn(tx, viewerId, row.challenge_id, body.timeZone ?? UTC, requestId);
      await tx.$executeRawUnsafe(`UPDATE challenge_invitations SET status = $2, responded_at = $3::timestamptz WHERE id = $1::uuid`, id, status, this.deps.clock().toISOString());
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
    const rows = await queryRows<InvitationRow[]>(db, sql`${INVITATION_SELECT} WHERE i.id = ${uuid(id)}`);
    const [view] = await this.views(db, rows);
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
