import { connectBus, createLogger, deleteStreams } from '@hoptrack/runtime';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testDatabaseSuffix } from './environment';
import { startGateway } from './gateway';
import { freePort, repoRoot, startProcess, type RunningProcess } from './processes';

/**
 * The whole product as processes: every service, then the gateway in front.
 * `make dev` and the browser tests start it the same way; only the ports,
 * database names and whether the gateway serves the built web app differ.
 */
/** Every service of the product: its entry, default port, database and the gateway variable that points at it. */
const SERVICES = [
  { name: 'auth', entry: 'services/auth/src/server.ts', port: 4001, database: 'hoptrack_auth', gatewayVar: 'AUTH_SERVICE_URL' },
  {
    name: 'social-graph',
    entry: 'services/social-graph/src/server.ts',
    port: 4002,
    database: 'hoptrack_social_graph',
    gatewayVar: 'SOCIAL_GRAPH_SERVICE_URL',
  },
  { name: 'media', entry: 'services/media/src/server.ts', port: 4003, database: 'hoptrack_media', gatewayVar: 'MEDIA_SERVICE_URL' },
  { name: 'places', entry: 'services/places/src/server.ts', port: 4004, database: 'hoptrack_places', gatewayVar: 'PLACES_SERVICE_URL' },
  { name: 'sessions', entry: 'services/sessions/src/server.ts', port: 4005, database: 'hoptrack_sessions', gatewayVar: 'SESSIONS_SERVICE_URL' },
  { name: 'messaging', entry: 'services/messaging/src/server.ts', port: 4006, database: 'hoptrack_messaging', gatewayVar: 'MESSAGING_SERVICE_URL' },
  // Workers, not behind the gateway: they serve only health and metrics.
  { name: 'media-worker', entry: 'services/media/src/workers/thumbnails/main.ts', port: 4013, database: 'hoptrack_media', gatewayVar: null },
  { name: 'sessions-fanout', entry: 'services/sessions/src/workers/fanout/main.ts', port: 4015, database: 'hoptrack_sessions', gatewayVar: null },
  // The operators' Bull Board (basic auth); it has no database of its own.
  { name: 'queue-board', entry: 'services/queue-board/src/server.ts', port: 4020, database: null, gatewayVar: null },
] as const;
export type ServiceName = (typeof SERVICES)[number]['name'];

export interface StackOptions {
  /** 'e2e' uses its own databases and bus namespace per run; 'dev' the developer's. */
  mode?: 'e2e' | 'dev';
  /** Bus namespace (also the Redis key prefix); e2e runs get a random one. */
  namespace?: string;
  /** Appended to every database name; '_e2e' for e2e runs, none for dev. */
  databaseSuffix?: string;
  gatewayPort?: number;
  /** Fixed service ports (make dev); free ports otherwise. */
  servicePorts?: Partial<Record<ServiceName, number>>;
  /** Port of the local S3 server (s3rver), when no S3_ENDPOINT is given. */
  s3Port?: number;
  /** Serve web/dist from the gateway (production shape); `make dev` uses Vite instead. */
  serveWeb?: boolean;
  /** The origin reset links point to: the gateway, or Vite in `make dev`. */
  publicWebUrl?: string;
  echo?: boolean;
  env?: Record<string, string | undefined>;
}

export interface Stack {
  baseUrl: string;
  services: Record<ServiceName, RunningProcess>;
  gateway: RunningProcess;
  stop(): Promise<void>;
}

export const pgBase = () => (process.env.TEST_PG_URL ?? process.env.PG_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/$/, '');

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const mode = options.mode ?? 'e2e';
  const namespace = options.namespace ?? (mode === 'dev' ? (process.env.BUS_NAMESPACE ?? 'hoptrack') : `e2e${randomBytes(4).toString('hex')}`);
  const databaseSuffix = options.databaseSuffix ?? (mode === 'dev' ? '' : `_e2e${testDatabaseSuffix()}`);
  const gatewayPort = options.gatewayPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const shared = {
    NODE_ENV: 'development',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_NAMESPACE: namespace,
    PUBLIC_WEB_URL: options.publicWebUrl ?? baseUrl,
    // The read-your-writes barrier of privacy changes gives up after its bound (2 s in production,
    // for a consumer that is down). Tests assert what it promises within the bound; on a machine
    // busy with other work a healthy consumer can lag past 2 s, so the bound is wider here.
    READ_MODEL_BARRIER_MS: mode === 'dev' ? undefined : '10000',
    // A made-up pub menu on brewpubs, so the bar detail shows food (no open data has menus).
    DEMO_MENUS: 'on',
    // The local queue board's operator password (make dev prints it; compose requires its own).
    QUEUE_BOARD_PASSWORD: process.env.QUEUE_BOARD_PASSWORD ?? 'hoptrack-queues',
    ...options.env,
  };

  const started: RunningProcess[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((proc) => proc.stop()));
  };
  try {
    // Files go to S3: the operator's endpoint if given, else a local s3rver (a folder per e2e run).
    let s3Endpoint = process.env.S3_ENDPOINT;
    if (!s3Endpoint) {
      const s3 = await startProcess({
        name: 's3',
        entry: 'infra/stack/s3.ts',
        port: options.s3Port ?? (await freePort()),
        readyPath: '/',
        env: { S3_DIR: mode === 'dev' ? undefined : await mkdtemp(path.join(tmpdir(), 'hoptrack-s3-')) },
        echo: options.echo,
      });
      started.push(s3);
      s3Endpoint = s3.url;
    }
    // Services start side by side; each creates and migrates its own database.
    // Ports first: sessions stores photos through the media service's internal API, so it needs media's address.
    const ports = Object.fromEntries(
      await Promise.all(SERVICES.map(async (service) => [service.name, options.servicePorts?.[service.name] ?? (await freePort())] as const)),
    ) as Record<ServiceName, number>;
    const running = await Promise.all(
      SERVICES.map(async (service) => {
        const proc = await startProcess({
          name: service.name,
          entry: service.entry,
          port: ports[service.name],
          // Ready means its database, bus and Redis answer, not only that it listens: a test's
          // first call on a busy machine must not meet a service still connecting.
          readyPath: '/readyz',
          env: {
            ...shared,
            S3_ENDPOINT: s3Endpoint,
            MEDIA_INTERNAL_URL: `http://127.0.0.1:${ports.media}`,
            // Verify tokens as production does: with auth's published keys, fetched over HTTP.
            AUTH_JWKS_URL: service.name === 'auth' ? undefined : `http://127.0.0.1:${ports.auth}/.well-known/jwks.json`,
            DATABASE_URL: service.database ? `${pgBase()}/${service.database}${databaseSuffix}` : undefined,
          },
          echo: options.echo,
        });
        started.push(proc);
        return [service, proc] as const;
      }),
    );
    const gateway = await startGateway({
      port: gatewayPort,
      echo: options.echo,
      env: {
        ...shared,
        HOST: process.env.HOST ?? '127.0.0.1',
        ...Object.fromEntries(running.flatMap(([service, proc]) => (service.gatewayVar ? [[service.gatewayVar, proc.url]] : []))),
        // E2E_WEB_DIST lets parallel work build and serve its own copy of the app (a rebuild of
        // web/dist would delete the lazy chunks a running browser test still loads).
        WEB_DIST_DIR: options.serveWeb === false ? '' : (process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'web/dist')),
        GATEWAY_RATE_LIMIT_PREFIX: `${namespace}:`,
      },
    });
    started.push(gateway);
    return {
      baseUrl,
      services: Object.fromEntries(running.map(([service, proc]) => [service.name, proc])) as Record<ServiceName, RunningProcess>,
      gateway,
      async stop() {
        await stopAll();
        if (mode === 'e2e') await dropStreams(namespace, shared.NATS_URL);
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function dropStreams(namespace: string, url: string): Promise<void> {
  const bus = await connectBus({ url, name: 'stack-cleanup', namespace, logger: createLogger('stack', 'silent') });
  await deleteStreams(bus);
  await bus.close();
}
