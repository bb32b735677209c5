import { ACCOUNT_BANNED, hasRole, suspendedUntil, type ModerationAction, type ModerationActionRequest, type Role } from '@hoptrack/proto';
import { conflict, forbidden } from '@hoptrack/runtime';
import type { User } from '../db';
import type { ModerationAction as ActionRow } from '../generated/prisma/client';
import { moderationActionsRepository as moderationActions } from '../repositories/moderation-actions.repository';
import { usersRepository as users } from '../repositories/users.repository';
import { changeAccount, type AccountChangeDeps } from './account-change';

export const CANNOT_ACT_ON_YOURSELF = 'You cannot act on your own account';
export const ONLY_ADMINS_ACT_ON_STAFF = 'Only admins can act on the account of a moderator or an admin';
export const NOT_RESTRICTED = 'This account is neither suspended nor banned';

const DAY_MS = 24 * 3600_000;

/** Who acts: the moderator's id and the roles their token check read. */
export interface Actor {
  userId: string;
  roles: readonly Role[];
}

/**
 * A moderator's actions on an account (issue 42, item 4): warn, suspend for
 * some days, ban, unban. Each is a row of moderation_actions (the person's
 * notices, the author's history, the audit) written with the account's
 * change in one transaction. A suspension or a ban is a change of the account
 * like a password reset: its version incremented, its snapshot on
 * user.updated.v1, answered once every service applied it — from then on
 * every service's token check refuses the person's tokens (and the live
 * streams close), until the suspension's end passes or an unban.
 */
export class AccountActions {
  constructor(private readonly deps: AccountChangeDeps) {}

  async take(actor: Actor, request: ModerationActionRequest, requestId: string): Promise<ActionRow> {
    if (request.targetId === actor.userId) throw forbidden(CANNOT_ACT_ON_YOURSELF);
    const now = this.deps.clock();
    return changeAccount(this.deps, request.targetId, requestId, async (tx, target) => {
      if (target.roles.length > 0 && !hasRole(actor.roles, 'admin')) throw forbidden(ONLY_ADMINS_ACT_ON_STAFF);
      const endsAt = request.action === 'suspend' && request.days ? new Date(now.getTime() + request.days * DAY_MS) : null;
      const restriction = restrictionAfter(target, request.action, endsAt, now);
      const updated = restriction ? await users.setRestriction(tx, target.id, restriction, now) : null;
      const result = await moderationActions.create(tx, {
        subjectId: target.id,
        moderatorId: actor.userId,
        action: request.action,
        reason: request.reason,
        days: request.days ?? null,
        endsAt,
        createdAt: now,
      });
      return { updated, result };
    });
  }

  /** The actions concerning a person, newest first (their notices). */
  concerning(userId: string): Promise<ActionRow[]> {
    return moderationActions.concerning(this.deps.prisma, userId, 100);
  }
}

/** The account's restriction after an action, or null when the action changes none (a warning). */
function restrictionAfter(
  target: Pick<User, 'banned' | 'suspendedUntil'>,
  action: ModerationActionRequest['action'],
  endsAt: Date | null,
  now: Date,
): { banned: boolean; suspendedUntil: Date | null } | null {
  switch (action) {
    case 'warn':
      return null;
    case 'suspend':
      return { banned: target.banned, suspendedUntil: endsAt };
    case 'ban':
      return { banned: true, suspendedUntil: null };
    case 'unban':
      if (!restrictionMessage(target, now)) throw conflict(NOT_RESTRICTED);
      return { banned: false, suspendedUntil: null };
  }
}

/** Why an account may not sign in or use its tokens now, or null (sign-in's 403 and auth's token check say it). */
export function restrictionMessage(user: Pick<User, 'banned' | 'suspendedUntil'>, now: Date): string | null {
  if (user.banned) return ACCOUNT_BANNED;
  if (user.suspendedUntil && user.suspendedUntil > now) return suspendedUntil(user.suspendedUntil);
  return null;
}

/** An action as the API shows it. */
export function toModerationAction(row: ActionRow): ModerationAction {
  return {
    id: row.id,
    targetType: 'person',
    targetId: row.subjectId,
    action: row.action as ModerationAction['action'],
    reason: row.reason,
    days: row.days,
    endsAt: row.endsAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
