import { createHash } from 'node:crypto';
import type { EventType } from '@hoptrack/proto';
import { sqlInbox, type Inbox, type InboxGuard } from '../bus/consumer';
import type { SqlClient } from '../db/sql';

/**
 * Tombstones of deleted accounts (issue 24). A service keeps the sha256 of an
 * erased person's id, never the id: enough to recognise them again (their
 * tokens, late events about them), nothing that names them.
 */
export const erasedHash = (id: string): string => createHash('sha256').update(id.toLowerCase()).digest('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The events that name an erased person by design: the deletion itself and its reports. */
const ABOUT_ERASURE: ReadonlySet<EventType> = new Set<EventType>(['user.deleted.v1', 'user.erased.v1']);

/** Every id an event's data names (fields, nested objects, arrays). */
export function idsMentioned(type: EventType, data: unknown): string[] {
  if (ABOUT_ERASURE.has(type)) return [];
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (UUID.test(value)) found.add(value.toLowerCase());
    } else if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(walk);
    }
  };
  walk(data);
  return [...found];
}

/** The inbox guard of the audience: an event naming an erased person is marked processed and not applied. */
export const erasedPeopleGuard: InboxGuard = {
  bind: (event) => {
    const ids = idsMentioned(event.type, event.data);
    return ids.length > 0 ? ids.map(erasedHash) : undefined;
  },
  skipWhen: 'EXISTS (SELECT 1 FROM "erased_people" WHERE "id_hash" = ANY($3::text[]))',
};

/**
 * The inbox of every consumer in a service that keeps the audience's people
 * table (every service but auth): late events about an erased person are
 * skipped (erasedPeopleGuard).
 */
export function audienceInbox<Tx extends SqlClient = SqlClient>(
  db: { $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number }): Promise<R> },
): Inbox<Tx> {
  return sqlInbox<Tx>(db, { guard: erasedPeopleGuard });
}

export async function markErased(tx: SqlClient, userId: string): Promise<void> {
  await tx.$executeRawUnsafe('INSERT INTO "erased_people" ("id_hash") VALUES ($1) ON CONFLICT DO NOTHING', erasedHash(userId));
}

/** Whether any of `ids` is an erased person. */
export async function anyErased(db: SqlClient, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const rows = await db.$queryRawUnsafe<Array<{ found: boolean }>>(
    'SELECT EXISTS (SELECT 1 FROM "erased_people" WHERE "id_hash" = ANY($1::text[])) AS "found"',
    ids.map(erasedHash),
  );
  return rows[0]?.found === true;
}

/**
 * The service's outbox rows that name an erased person, published or not.
 * Published rows are kept otherwise (replay, audit); these go with the
 * person. A row still waiting for the relay (a message sent to them a moment
 * before) goes unpublished: every consumer would skip it anyway (the inbox's
 * guard), and published after the erasure it would name them again.
 * A row the relay is publishing right now is locked: the delete waits for it.
 *
 * `ids`: the people's ids (uuids). Found by the rows' `people` column, the
 * ids each event names (bus/people-named.ts), through its GIN index: the cost
 * follows the person's events, not the outbox's length (issue 41). The
 * messages of the published ones are queued in stream_purges for the
 * purger (bus/purge.ts); resolves to how many were queued.
 */
export async function forgetEventsNaming(tx: SqlClient, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  // The published ones' messages are queued for the purger (bus/purge.ts) in the same statement: the
  // rows that said where they were stored go with the commit that remembers it instead.
  return tx.$executeRawUnsafe(
    `WITH "gone" AS (DELETE FROM "outbox" WHERE "people" && $1::uuid[] RETURNING "stream", "stream_seq", "subject")
     INSERT INTO "stream_purges" ("stream", "seq", "subject")
     SELECT "stream", "stream_seq", "subject" FROM "gone" WHERE "stream_seq" IS NOT NULL
     ON CONFLICT DO NOTHING`,
    ids.map((id) => id.toLowerCase()),
  );
}

/**
 * An erased person's rows in the audience tables, with the tombstone: the
 * audience consumer's answer to user.deleted.v1, which a service's own
 * erasure may also run in its transaction (gone with that commit, whichever
 * consumer runs first). `graph`: the service keeps the graph tables.
 */
export async function forgetPerson(tx: SqlClient, userId: string, options: { graph: boolean }): Promise<void> {
  const exec = (sql: string) => tx.$executeRawUnsafe(sql, userId);
  await markErased(tx, userId);
  await exec('DELETE FROM "users" WHERE "id" = $1::uuid');
  await exec('DELETE FROM "revoked_devices" WHERE "user_id" = $1::uuid');
  if (!options.graph) return;
  await exec('DELETE FROM "follows" WHERE "follower_id" = $1::uuid OR "followee_id" = $1::uuid');
  await exec('DELETE FROM "blocks" WHERE "blocker_id" = $1::uuid OR "blocked_id" = $1::uuid');
  await exec('DELETE FROM "mutes" WHERE "user_id" = $1::uuid OR "muted_id" = $1::uuid');
}
