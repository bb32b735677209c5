import type { TokenClaims } from '../auth/tokens';
import type { SqlClient } from '../db/sql';
import { anyErased } from './erased';
import type { PeopleCache } from './people-cache';

/** Decides whether a well-signed token is still current (not issued before a password reset, not of a device signed out). */
export type RevocationCheck = (claims: TokenClaims) => Promise<boolean>;

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
  const current = async (claims: TokenClaims, stored: number | undefined) =>
    stored === undefined ? !(await anyErased(db, [claims.userId])) : claims.tokenVersion >= stored;
  if (people) {
    // The cache holds a reset's new version (and a sign-out) before the answer (see PeopleCache).
    return async (claims) => {
      const { person, revoked } = await people.tokenState(claims.userId, claims.sessionId);
      return !revoked && current(claims, person?.tokenVersion);
    };
  }
  return async (claims) => {
    const rows = await db.$queryRawUnsafe<Array<{ token_version: number | null; revoked: boolean }>>(
      `SELECT (SELECT "token_version" FROM "users" WHERE "id" = $1::uuid) AS "token_version",
              EXISTS (SELECT 1 FROM "revoked_devices" WHERE "device_id" = $2::uuid AND "expires_at" > now()) AS "revoked"`,
      claims.userId,
      claims.sessionId ?? null,
    );
    const row = rows[0];
    return row?.revoked !== true && current(claims, row?.token_version ?? undefined);
  };
}
