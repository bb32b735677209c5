import path from 'node:path';
import { packageDir } from '../package-dir';

/**
 * The platform's own tables, in every service's database whatever its
 * definition says: what the runtime itself keeps per request (the answers of
 * idempotent writes, http/idempotency.ts) and per consumer (its position,
 * bus/positions.ts), and what it adds to the services' own outbox (the ids
 * each event names, bus/people-named.ts). Applied by migrateDatabase with the
 * service's migrations; the services' Prisma schemas do not declare the
 * platform's tables (the schema check holds them to these migrations
 * instead), but do declare that column, with the rest of their outbox.
 */
export const PLATFORM_PARTS = {
  requests: { tables: ['idempotent_requests'], migrations: 'migrations/requests' },
  // Where each consumer with a read model last stood (bus/positions.ts): a gap past the streams' age is found at its start.
  positions: { tables: ['consumer_positions'], migrations: 'migrations/positions' },
  // A column of the outbox every service made itself (and its Prisma schema declares): the ids each event names, for erasure (issue 41).
  outboxPeople: { tables: [], migrations: 'migrations/outbox-people' },
  // Where each event was stored (two outbox columns) and the messages an erasure queued for deletion (bus/purge.ts).
  streamPurges: { tables: ['stream_purges'], migrations: 'migrations/stream-purges' },
} as const;

export function platformMigrationDirs(): string[] {
  return Object.values(PLATFORM_PARTS).map((part) => path.join(packageDir('@hoptrack/runtime'), part.migrations));
}

export function platformTables(): string[] {
  return Object.values(PLATFORM_PARTS).flatMap((part) => [...part.tables]);
}
