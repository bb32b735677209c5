import type { ChallengeKind } from '@hoptrack/proto';
import { audienceSql, executeSql, identifier, queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';
import type { Db, Prisma } from '../db';
import { CHALLENGE_SUMMARY } from './participations.repository';

/** Invitations to challenges (challenge_invitations), each with its challenge. */

export interface InvitationRow {
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

/** Where the inviter stands in a challenge towards one invitee. */
export interface InviteState {
  /** The invitee is in the challenge already. */
  joined: boolean;
  /** Invitations the inviter sent to the challenge. */
  sent: number;
  /** The inviter invited this invitee to it before. */
  duplicate: boolean;
}

export type ExportedInvitation = Prisma.ChallengeInvitationGetPayload<{ include: { challenge: typeof CHALLENGE_SUMMARY } }>;

const INVITATION_SELECT = sql`
  SELECT i.id::text, i.from_user_id::text, i.to_user_id::text, i.challenge_id::text, i.status, i.responded_at, i.created_at, i.expires_at,
         dc.title, dc.challenge_type, dc.target_value, to_char(dc.date, 'YYYY-MM-DD') AS date
    FROM challenge_invitations i JOIN daily_challenges dc ON dc.id = i.challenge_id`;

/** The side of an invitation a person is on, and the other's. */
const SIDES = {
  received: { mine: identifier('i.to_user_id'), other: identifier('i.from_user_id') },
  sent: { mine: identifier('i.from_user_id'), other: identifier('i.to_user_id') },
};

export const invitationsRepository = {
  async findById(db: SqlClient, id: string): Promise<InvitationRow | undefined> {
    const [row] = await queryRows<InvitationRow[]>(db, sql`${INVITATION_SELECT} WHERE i.id = ${uuid(id)}`);
    return row;
  },

  /** The invitation, locked for the rest of the transaction. */
  async lockById(db: SqlClient, id: string): Promise<InvitationRow | undefined> {
    const [row] = await queryRows<InvitationRow[]>(db, sql`${INVITATION_SELECT} WHERE i.id = ${uuid(id)} FOR UPDATE OF i`);
    return row;
  },

  /**
   * The viewer's received or sent invitations, newest first, without anyone
   * blocked either way; received ones without those from a friend the viewer
   * muted (issue 39: they were listed while their notifications were hidden).
   */
  listFor(db: SqlClient, viewerId: string, side: keyof typeof SIDES, limit: number): Promise<InvitationRow[]> {
    const viewer = uuid(viewerId);
    const { mine, other } = SIDES[side];
    const unmuted = side === 'received' ? sql`AND NOT ${audienceSql.muted(viewer, other)}` : sql``;
    return queryRows<InvitationRow[]>(
      db,
      sql`${INVITATION_SELECT} WHERE ${mine} = ${viewer} AND NOT ${audienceSql.blockedBetween(viewer, other)} ${unmuted}
          ORDER BY i.created_at DESC, i.id LIMIT ${limit}`,
    );
  },

  async inviteState(db: SqlClient, fromUserId: string, challengeId: string, toUserId: string): Promise<InviteState | undefined> {
    const [state] = await queryRows<InviteState[]>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM user_challenges WHERE user_id = ${toUserId}::uuid AND challenge_id = ${challengeId}::uuid) AS joined,
                (SELECT count(*)::int FROM challenge_invitations WHERE from_user_id = ${fromUserId}::uuid AND challenge_id = ${challengeId}::uuid) AS sent,
                EXISTS (SELECT 1 FROM challenge_invitations WHERE from_user_id = ${fromUserId}::uuid AND challenge_id = ${challengeId}::uuid AND to_user_id = ${toUserId}::uuid) AS duplicate`,
    );
    return state;
  },

  /** The new invitation's id, and its challenge's title (for the event). */
  async create(db: SqlClient, i: { fromUserId: string; toUserId: string; challengeId: string; expiresAt: Date }): Promise<{ id: string; title: string } | undefined> {
    const [created] = await queryRows<Array<{ id: string; title: string }>>(
      db,
      sql`INSERT INTO challenge_invitations (id, from_user_id, to_user_id, challenge_id, expires_at)
         VALUES (gen_random_uuid(), ${i.fromUserId}::uuid, ${i.toUserId}::uuid, ${i.challengeId}::uuid, ${i.expiresAt.toISOString()}::timestamptz)
         RETURNING id::text, (SELECT title FROM daily_challenges WHERE id = ${i.challengeId}::uuid) AS title`,
    );
    return created;
  },

  async setAnswer(db: SqlClient, id: string, status: 'accepted' | 'declined', at: Date): Promise<void> {
    await executeSql(db, sql`UPDATE challenge_invitations SET status = ${status}, responded_at = ${at.toISOString()}::timestamptz WHERE id = ${id}::uuid`);
  },

  /** Every invitation the person sent or received. */
  async deleteInvolving(db: SqlClient, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM challenge_invitations WHERE from_user_id = ${userId}::uuid OR to_user_id = ${userId}::uuid`);
  },

  /** The invitations the person sent, oldest first, each with its challenge. */
  listSentForExport(db: Db, userId: string): Promise<ExportedInvitation[]> {
    return db.challengeInvitation.findMany({ where: { fromUserId: userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { challenge: CHALLENGE_SUMMARY } });
  },

  /** The invitations the person received, oldest first, each with its challenge. */
  listReceivedForExport(db: Db, userId: string): Promise<ExportedInvitation[]> {
    return db.challengeInvitation.findMany({ where: { toUserId: userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { challenge: CHALLENGE_SUMMARY } });
  },
};
