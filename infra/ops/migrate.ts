/**
 * Applies one service's migrations and leaves: what Kubernetes' migration Job
 * runs before a rollout (deploy/k8s), so new pods start against the schema
 * they expect. Services still migrate at start-up (under the same advisory
 * lock), which keeps `docker compose up` and `make dev` one step.
 *
 *   DATABASE_URL=postgresql://… node infra/ops/dist/migrate.js sessions
 */
import { audienceMigrationDirs, createLogger, prepareDatabase, type AudiencePart } from '@hoptrack/runtime';
import * as auth from '../../services/auth/src/connections';
import * as challenges from '../../services/challenges/src/connections';
import * as media from '../../services/media/src/connections';
import * as messaging from '../../services/messaging/src/connections';
import * as notifications from '../../services/notifications/src/connections';
import * as places from '../../services/places/src/connections';
import * as sessions from '../../services/sessions/src/connections';
import * as socialGraph from '../../services/social-graph/src/connections';

const SCHEMAS: Record<string, { migrationsDir: string; AUDIENCE?: readonly AudiencePart[] }> = {
  auth,
  'social-graph': socialGraph,
  media,
  places,
  sessions,
  messaging,
  notifications,
  challenges,
};

const [service] = process.argv.slice(2);
const schema = service ? SCHEMAS[service] : undefined;
const url = process.env.DATABASE_URL;
const logger = createLogger('migrate', process.env.LOG_LEVEL ?? 'info');
if (!schema || !url) {
  logger.fatal(`usage: DATABASE_URL=… migrate <${Object.keys(SCHEMAS).join('|')}>`);
  process.exit(64); // EX_USAGE
}
try {
  await prepareDatabase(url, schema.migrationsDir, logger, { include: audienceMigrationDirs(schema.AUDIENCE ?? []) });
  logger.info({ service }, 'migrations applied');
} catch (err) {
  logger.fatal({ err, service }, 'migration failed');
  process.exit(1);
}
