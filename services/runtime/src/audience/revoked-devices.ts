import type { SqlClient } from '../db/sql';

/**
 * The devices signed out (issue 40) in a service's people part: a token of
 * one is refused like a token of an older version. Bounded: a row matters
 * only until the device's tokens expire, and the expired ones are deleted
 * with each new one.
 */
export async function revokeDevice(tx: SqlClient, revoked: { userId: string; deviceId: string; expiresAt: Date }): Promise<void> {
  await tx.$executeRawUnsafe('DELETE FROM "revoked_devices" WHERE "expires_at" <= now()');
  await tx.$executeRawUnsafe(
    `INSERT INTO "revoked_devices" ("device_id", "user_id", "expires_at") VALUES ($1::uuid, $2::uuid, $3::timestamptz)
     ON CONFLICT ("device_id") DO UPDATE SET "expires_at" = GREATEST("revoked_devices"."expires_at", EXCLUDED."expires_at")`,
    revoked.deviceId,
    revoked.userId,
    revoked.expiresAt,
  );
}

/** The person's devices signed out whose tokens have not expired yet. */
export function revokedDevicesOf(db: SqlClient, userId: string): Promise<Array<{ deviceId: string; expiresAt: Date }>> {
  return db.$queryRawUnsafe<Array<{ deviceId: string; expiresAt: Date }>>(
    'SELECT "device_id"::text AS "deviceId", "expires_at" AS "expiresAt" FROM "revoked_devices" WHERE "user_id" = $1::uuid AND "expires_at" > now()',
    userId,
  );
}
