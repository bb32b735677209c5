import path from 'node:path';
import { packageDir } from '../package-dir';

/**
 * The platform's own tables, in every service's database whatever its
 * definition says: what the runtime itself keeps per request (the answers of
 * idempotent writes, http/idempotency.ts). Applied by migrateDatabase with the
 * service's migrations; the services' Prisma schemas do not declare them (the
 * schema check holds them to these migrations instead).
 */
export const PLATFORM_PARTS = {
  requests: { tables: ['idempotent_requests'], migrations: 'migrations/requests' },
} as const;

export function platformMigrationDirs(): string[] {
  return Object.values(PLATFORM_PARTS).map((part) => path.join(packageDir('@hoptrack/runtime'), part.migrations));
}

export function platformTables(): string[] {
  return Object.values(PLATFORM_PARTS).flatMap((part) => [...part.tables]);
}
