import { createLogger, createMetrics, loadConfig, migrateDatabase, type Logger } from '@hoptrack/runtime';
import { buildAuthApp, type AuthApp } from './app';
import { authConfigSchema } from './config';
import { database, openConnections, type AuthConnections } from './connections';

/**
 * An operators' command of the auth service (the seed, the re-applied
 * erasures after a restore, the staff roles): its database migrated, the
 * same app the service runs — so what it changes goes through the domain
 * code and the outbox — its events published before it leaves, and its
 * connections closed however it ends.
 */
export async function runAuthCommand<R>(name: string, run: (context: { app: AuthApp; connections: AuthConnections; logger: Logger }) => Promise<R>): Promise<R> {
  const config = loadConfig(name, authConfigSchema);
  const logger = createLogger(name, config.LOG_LEVEL);
  await migrateDatabase(database, config, logger);
  const connections = await openConnections(config, logger);
  try {
    const app = await buildAuthApp({ config, logger, metrics: createMetrics(name), ...connections });
    const result = await run({ app, connections, logger });
    await app.relay.drain();
    return result;
  } finally {
    await connections.close();
  }
}
