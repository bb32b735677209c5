/**
 * Applies one service's migrations and leaves: what Kubernetes' migration Job
 * runs before a rollout (deploy/k8s), so new pods start against the schema
 * they expect. Services still migrate at start-up (under the same advisory
 * lock), which keeps `docker compose up` and `make dev` one step.
 *
 *   DATABASE_URL=postgresql://… node infra/ops/dist/migrate.js sessions
 */
import type { ServiceName } from '@hoptrack/proto';
import { createLogger, migrateDatabase, type DatabasePart } from '@hoptrack/runtime';
import { database as auth } from '../../services/auth/src/connections';
import { database as challenges } from '../../services/challenges/src/connections';
import { database as media } from '../../services/media/src/connections';
import { database as messaging } from '../../services/messaging/src/connections';
import { database as notifications } from '../../services/notifications/src/connections';
import { database as places } from '../../services/places/src/connections';
import { database as sessions } from '../../services/sessions/src/connections';
import { database as socialGraph } from '../../services/social-graph/src/connections';

/** Each service's database part, the one its definition migrates at start: every service named in proto, none twice. */
const DATABASES = {
  auth,
  'social-graph': socialGraph,
  media,
  places,
  sessions,
  messaging,
  notifications,
  challenges,
} satisfies Record<ServiceName, DatabasePart<never>>;

const [service] = process.argv.slice(2);
const part = service && service in DATABASES ? DATABASES[service as ServiceName] : undefined;
const url = process.env.DATABASE_URL;
const logger = createLogger('migrate', process.env.LOG_LEVEL ?? 'info');
if (!part || !url) {
  logger.fatal(`usage: DATABASE_URL=… migrate <${Object.keys(DATABASES).join('|')}>`);
  process.exit(64); // EX_USAGE
}
try {
  // The part reads its URLs from the service's config; the Job gives the one it migrates at as DATABASE_URL
  // alone (deploy/k8s: the direct read-write Service, never the transaction pooler).
  await migrateDatabase({ ...part, url: () => url, migrationUrl: () => url }, null, logger);
  logger.info({ service }, 'migrations applied');
} catch (err) {
  logger.fatal({ err, service }, 'migration failed');
  process.exit(1);
}
