import type { Logger } from 'pino';
import { audienceMigrationDirs, type AudiencePart } from '../audience/tables';
import { ensureDatabase } from './database';
import { migrate } from './migrate';

/**
 * Start-up for a service's database: create it if missing, then apply pending
 * migrations: the service's own and those of the audience parts it keeps.
 */
export async function prepareDatabase(
  connectionString: string,
  migrationsDir: string,
  logger: Logger,
  options: { audience?: readonly AudiencePart[] } = {},
): Promise<void> {
  await ensureDatabase(connectionString);
  await migrate({ connectionString, migrationsDir, include: audienceMigrationDirs(options.audience ?? []), logger });
}
