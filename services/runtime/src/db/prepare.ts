import type { Logger } from 'pino';
import { ensureDatabase } from './database';
import { migrate } from './migrate';

/** Start-up for a service's database: create it if missing, then apply pending migrations. */
export async function prepareDatabase(connectionString: string, migrationsDir: string, logger: Logger): Promise<void> {
  await ensureDatabase(connectionString);
  await migrate({ connectionString, migrationsDir, logger });
}
