import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDir } from '../package-dir';

const BUS_PART = 'migrations/bus';
const BUS_MIGRATION = readFileSync(path.join(packageDir('@hoptrack/runtime'), BUS_PART, '20200101000000_outbox_inbox', 'migration.sql'), 'utf8');
const INBOX_START = BUS_MIGRATION.indexOf('CREATE TABLE IF NOT EXISTS "processed_events"');
/** The consumers' positions (bus/positions.ts), a platform part every service's database has (db/platform-parts.ts). */
const POSITIONS_MIGRATION = readFileSync(path.join(packageDir('@hoptrack/runtime'), 'migrations/positions', '20261127030000_consumer_positions', 'migration.sql'), 'utf8');
/** The outbox's `people` column and its index (bus/people-named.ts), a platform part every service's database has. */
export const OUTBOX_PEOPLE_MIGRATION = readFileSync(path.join(packageDir('@hoptrack/runtime'), 'migrations/outbox-people', '20261202140000_outbox_people', 'migration.sql'), 'utf8');
/** The outbox's stream and stream_seq columns and the stream_purges table (bus/purge.ts), a platform part every service's database has. */
export const STREAM_PURGES_MIGRATION = readFileSync(path.join(packageDir('@hoptrack/runtime'), 'migrations/stream-purges', '20261203090000_stream_purges', 'migration.sql'), 'utf8');

/**
 * The outbox and inbox tables, as the bus part's migration makes them, with
 * the outbox's people and stream columns of the platform parts (and the stream_purges table) (one home: the migrations). The services that predate the part created the same
 * tables in their own first migration (their Prisma schemas declare them as
 * OutboxEvent and ProcessedEvent); the runtime's own tests and the bench
 * create them from these.
 */
export const OUTBOX_TABLE_SQL = `${BUS_MIGRATION.slice(0, INBOX_START)}\n${OUTBOX_PEOPLE_MIGRATION}\n${STREAM_PURGES_MIGRATION}`;
/** The inbox: what each consumer processed, and where it last stood (its position, read at its start). */
export const INBOX_TABLE_SQL = `${BUS_MIGRATION.slice(INBOX_START)}\n${POSITIONS_MIGRATION}`;

/**
 * The same tables as a migration part (runtime migrations/bus): a new service
 * includes it (prepareDatabase's `include`, or a definition's `database.include`)
 * instead of copying them into its first migration. Idempotent, so a service
 * that made them itself may include it too.
 */
export function busMigrationDirs(): string[] {
  return [path.join(packageDir('@hoptrack/runtime'), BUS_PART)];
}
