import type { Logger } from 'pino';
import { ensureDatabase } from './database';
import { migrate } from './migrate';
import { applyDatabaseSettings } from './settings';

/**
 * Start-up for a service's database: create it if missing, then apply pending
 * migrations: the service's own and those of the parts it keeps (`include`:
 * more folders of migrations, such as the audience module's tables,
 * audienceMigrationDirs). The platform knows no part by name. Last, the
 * database's settings (settings.ts).
 */
export async function prepareDatabase(
  connectionString: string,
  migrationsDir: string,
  logger: Logger,
  options: { include?: readonly string[] } = {},
): Promise<void> {
  await ensureDatabase(connectionString);
  await migrate({ connectionString, migrationsDir, include: [...(options.include ?? [])], logger });
  await applyDatabaseSettings(connectionString, logger);
}
