import type { Role } from '@hoptrack/proto';
import type { CurrentCheck } from '../auth/authenticate';
import type { TokenClaims } from '../auth/tokens';
import type { SqlClient } from '../db/sql';
import { anyErased } from './erased';
import { isRestricted } from './people';
import type { PeopleCache } from './people-cache';

/**
 * Decides whether a well-signed token is still current (not issued before a
 * password reset, not of a device signed out) and answers the holder's roles
 * from the same read (issue 42); null when it is not current.
 */
export type RevocationCheck = CurrentCheck;

const NO_ROLES: readonly Role[] = [];

/** What the check reads of a person: the table's row or the cache's entry. */
interface StoredState {
  tokenVersion: number;
  roles?: readonly Role[] | null;
  suspendedUntil?: Date | string | null;
  banned?: boolean | null;
}

/**
 * The token-version check every service but auth runs, from the people table:
 * a token carrying an older version than the person's was issued before a
 * password reset and is refused.
 *
 * Someone the table has not heard of yet passes, unless they are erased: their token cannot be a
 * revoked one, because the reset that would revoke it comes after their
 * registration on the same stream, and the reset answers only once every
 * consumer applied it (auth's read-model barrier).
 *
 * A token of a device signed out (its `sid` in revoked_devices, issue 40)
 * is refused the same way, from the same read: the sign-out answers once
 * every consumer applied its event (the same barrier).
 *
 * With the service's PeopleCache the check is a Redis read instead of a
 * statement per request.
 */
export function tokenVersionCheck(db: SqlClient, people?: PeopleCache): RevocationCheck {
  // Someone not in the table is either not heard of yet (passes) or erased (refused: their
  // account was deleted, and DELETE /api/me answers only once every service applied it).
  // Someone not heard of yet holds no role and no restriction: a grant or a suspension comes after the
  // registration on the same stream. A suspended or banned person's tokens are refused (issue 42), from
  // the same read; a suspension's end needs no event: the time passes.
  const current = async (claims: TokenClaims, stored: StoredState | undefined) => {
    if (stored === undefined) return (await anyErased(db, [claims.userId])) ? null : { roles: NO_ROLES };
    if (claims.tokenVersion < stored.tokenVersion || isRestricted(stored, Date.now())) return null;
    return { roles: stored.roles ?? NO_ROLES };
  };
  if (people) {
    // The cache holds a reset's new version (and a sign-out, and a revoked role) before the answer (see PeopleCache).
    return async (claims) => {
      const { person, revoked } = await people.tokenState(claims.userId, claims.sessionId);
      return revoked ? null : current(claims, person ?? undefined);
    };
  }
  return async (claims) => {
    const rows = await db.$queryRawUnsafe<
      Array<{ token_version: number | null; roles: Role[] | null; suspended_until: Date | null; banned: boolean | null; revoked: boolean }>
    >(
      `SELECT u."token_version", u."roles", u."suspended_until", u."banned",
              EXISTS (SELECT 1 FROM "revoked_devices" WHERE "device_id" = $2::uuid AND "expires_at" > now()) AS "revoked"
       FROM (SELECT 1) AS one LEFT JOIN "users" u ON u."id" = $1::uuid`,
      claims.userId,
      claims.sessionId ?? null,
    );
    const row = rows[0];
    if (row?.revoked === true) return null;
    return current(
      claims,
      row?.token_version == null ? undefined : { tokenVersion: row.token_version, roles: row.roles, suspendedUntil: row.suspended_until, banned: row.banned },
    );
  };
}
