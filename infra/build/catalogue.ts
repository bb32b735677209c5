/**
 * Every process Hoptrack runs, in one place: the build compiles these entries,
 * the test stack and `make dev` start them, and the compose and Kubernetes
 * tests check that each one is deployed. A new service is a new line here.
 */
export type ProcessKind = 'api' | 'worker' | 'gateway' | 'tool';

export interface ProcessSpec {
  /** The process's name: compose service, Kubernetes Deployment, log `service` field. */
  name: string;
  /** Its workspace folder. */
  dir: string;
  /** Entry point under `dir`, as TypeScript source. */
  entry: string;
  kind: ProcessKind;
  /** Default port (health, readiness and metrics on every process). */
  port: number;
  /** Its database (without a test suffix), when it has one. */
  database: string | null;
  /** The gateway variable that lists its instances, for the services behind the gateway. */
  gatewayVar: string | null;
}

export const PROCESSES = [
  { name: 'auth', dir: 'services/auth', entry: 'src/server.ts', kind: 'api', port: 4001, database: 'hoptrack_auth', gatewayVar: 'AUTH_SERVICE_URL' },
  {
    name: 'social-graph',
    dir: 'services/social-graph',
    entry: 'src/server.ts',
    kind: 'api',
    port: 4002,
    database: 'hoptrack_social_graph',
    gatewayVar: 'SOCIAL_GRAPH_SERVICE_URL',
  },
  { name: 'media', dir: 'services/media', entry: 'src/server.ts', kind: 'api', port: 4003, database: 'hoptrack_media', gatewayVar: 'MEDIA_SERVICE_URL' },
  { name: 'places', dir: 'services/places', entry: 'src/server.ts', kind: 'api', port: 4004, database: 'hoptrack_places', gatewayVar: 'PLACES_SERVICE_URL' },
  { name: 'sessions', dir: 'services/sessions', entry: 'src/server.ts', kind: 'api', port: 4005, database: 'hoptrack_sessions', gatewayVar: 'SESSIONS_SERVICE_URL' },
  { name: 'messaging', dir: 'services/messaging', entry: 'src/server.ts', kind: 'api', port: 4006, database: 'hoptrack_messaging', gatewayVar: 'MESSAGING_SERVICE_URL' },
  {
    name: 'notifications',
    dir: 'services/notifications',
    entry: 'src/server.ts',
    kind: 'api',
    port: 4007,
    database: 'hoptrack_notifications',
    gatewayVar: 'NOTIFICATIONS_SERVICE_URL',
  },
  {
    name: 'challenges',
    dir: 'services/challenges',
    entry: 'src/server.ts',
    kind: 'api',
    port: 4008,
    database: 'hoptrack_challenges',
    gatewayVar: 'CHALLENGES_SERVICE_URL',
  },
  // Workers, not behind the gateway: they serve only health and metrics.
  { name: 'media-worker', dir: 'services/media', entry: 'src/workers/thumbnails/main.ts', kind: 'worker', port: 4013, database: 'hoptrack_media', gatewayVar: null },
  { name: 'sessions-fanout', dir: 'services/sessions', entry: 'src/workers/fanout/main.ts', kind: 'worker', port: 4015, database: 'hoptrack_sessions', gatewayVar: null },
  // The operators' Bull Board (basic auth); it has no database of its own.
  { name: 'queue-board', dir: 'services/queue-board', entry: 'src/server.ts', kind: 'tool', port: 4020, database: null, gatewayVar: null },
  { name: 'gateway', dir: 'gateway', entry: 'src/server.ts', kind: 'gateway', port: 8080, database: null, gatewayVar: null },
] as const satisfies readonly ProcessSpec[];

export type ProcessName = (typeof PROCESSES)[number]['name'];

/** Entries built beside the processes: one-off commands an operator or a Job runs. */
export const COMMANDS = [
  // express-gateway loads its plugin by path, so the plugin is its own file.
  { dir: 'gateway', entry: 'src/plugin/index.ts' },
  { dir: 'services/auth', entry: 'src/seed.ts' },
  { dir: 'services/auth', entry: 'src/reapply-erasures.ts' },
  { dir: 'services/auth', entry: 'src/staff-command.ts' },
  { dir: 'services/places', entry: 'src/catalogue/seed-main.ts' },
  { dir: 'infra/ops', entry: 'migrate.ts' },
  { dir: 'infra/ops', entry: 'dead-letters.ts' },
  { dir: 'infra/ops', entry: 'backup.ts' },
] as const;

/** `services/sessions` + `src/workers/fanout/main.ts` → `services/sessions/dist/workers/fanout/main.js`. */
export function compiledPath(dir: string, entry: string): string {
  return `${dir}/dist/${entry.replace(/^src\//, '').replace(/\.ts$/, '.js')}`;
}

/** The CommonJS packages (express-gateway loads its plugin with require). */
export const COMMONJS_DIRS: readonly string[] = ['gateway'];
