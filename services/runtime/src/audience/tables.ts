import path from 'node:path';
import { packageDir } from '../package-dir';

/**
 * The audience module's tables, by part. A service keeps the parts it needs:
 * `people` (who someone is, privacy switches, token version: every service but
 * auth, which owns the source) and `graph` (follows and friendships, blocks,
 * mutes: every service but social-graph, which owns the source). Their one
 * definition is the runtime's migrations (services/runtime/migrations), which
 * the migration runner applies beside the service's own.
 */
export const AUDIENCE_PARTS = {
  people: { tables: ['users', 'erased_people', 'revoked_devices'], migrations: 'migrations/audience-people' },
  graph: { tables: ['follows', 'blocks', 'mutes'], migrations: 'migrations/audience-graph' },
} as const;

export type AudiencePart = keyof typeof AUDIENCE_PARTS;

export function audienceMigrationDirs(parts: readonly AudiencePart[]): string[] {
  return parts.map((part) => path.join(packageDir('@hoptrack/runtime'), AUDIENCE_PARTS[part].migrations));
}

export function audienceTables(parts: readonly AudiencePart[]): string[] {
  return parts.flatMap((part) => AUDIENCE_PARTS[part].tables);
}
