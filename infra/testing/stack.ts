import { CHALLENGE_KIND_NAMES } from '@hoptrack/proto';
import { connectBus, createLogger, deleteStreams } from '@hoptrack/runtime';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROCESSES, type ProcessName } from '../build/catalogue';
import { testDatabaseSuffix } from './environment';
import { startGateway } from './gateway';
import { freePort, repoRoot, startProcess, type RunningProcess } from './processes';
import { startServiceAddress, type ServiceAddress } from './service-address';

/**
 * The whole product as processes: every service, then the gateway in front.
 * `make dev` and the browser tests start it the same way; only the ports,
 * database names and whether the gateway serves the built web app differ.
 */
/** Every process of the product but the gateway, from the build's catalogue (infra/build/catalogue.ts). */
const SERVICES = PROCESSES.filter((p): p is Exclude<(typeof PROCESSES)[number], { kind: 'gateway' }> => p.kind !== 'gateway').map((p) => ({
  ...p,
  entry: `${p.dir}/${p.entry}`,
}));
export type ServiceName = Exclude<ProcessName, 'gateway'>;

export interface StackOptions {
  /** 'e2e' uses its own databases and bus namespace per run; 'dev' the developer's. */
  mode?: 'e2e' | 'dev';
  /** Bus namespace (also the Redis key prefix); e2e runs get a random one. */
  namespace?: string;
  /** Appended to every database name; '_e2e' for e2e runs, none for dev. */
  databaseSuffix?: string;
  gatewayPort?: number;
  /** The gateway's operator port (its metrics); a free one by default. */
  gatewayMetricsPort?: number;
  /** Fixed service ports (make dev); free ports otherwise. Further replicas take port + 100, + 200… */
  servicePorts?: Partial<Record<ServiceName, number>>;
  /**
   * Copies of every process but the gateway (REPLICAS in make dev), as
   * production runs them: the gateway balances over them, and calls between
   * services go through one address per service (a Kubernetes Service's part).
   */
  replicas?: number;
  /** Port of the local S3 server (s3rver), when no S3_ENDPOINT is given. */
  s3Port?: number;
  /** Ports of the local SMTP catcher (SMTP, and HTTP to read what arrived), when no SMTP_URL is given. */
  mailPorts?: { smtp: number; http: number };
  /** Serve web/dist from the gateway (production shape); `make dev` uses Vite instead. */
  serveWeb?: boolean;
  /** The origin reset links point to: the gateway, or Vite in `make dev`. */
  publicWebUrl?: string;
  echo?: boolean;
  env?: Record<string, string | undefined>;
}

export interface Stack {
  baseUrl: string;
  /** The first instance of each. */
  services: Record<ServiceName, RunningProcess>;
  /** Every instance of each, in start order. */
  instances: Record<ServiceName, RunningProcess[]>;
  /** Copies of each service and worker (StackOptions.replicas). */
  replicas: number;
  gateway: RunningProcess;
  /** The SMTP catcher's HTTP address (`GET /messages`), when the stack runs one (no SMTP_URL given). */
  mailUrl: string | null;
  /** The local S3 server (s3rver), when the stack runs one (no S3_ENDPOINT given): a fault test stops it and starts it again with `startProcess(s3.options)`. */
  s3: RunningProcess | null;
  stop(): Promise<void>;
}

/** `make dev`'s bus namespace (BUS_NAMESPACE's default in the runtime's config). */
export const DEV_NAMESPACE = 'hoptrack';
/** The benchmarks' namespaces (infra/bench/run.ts: the full run's and the smoke's). */
export const BENCH_NAMESPACES = { full: 'bench', smoke: 'benchsmoke' } as const;
/** SCAN patterns of every Redis key a stack's namespace owns (its own prefix, and BullMQ's older `bull:` one). */
export const keyPatternsOf = (namespace: string): string[] => [`${namespace}:*`, `bull:${namespace}*`, `${namespace}-*`];
/** Whether `key` is one of a namespace's keys (keyPatternsOf). */
export const isKeyOf = (namespace: string, key: string): boolean =>
  key.startsWith(`${namespace}:`) || key.startsWith(`bull:${namespace}`) || key.startsWith(`${namespace}-`);

export const pgBase = () => (process.env.TEST_PG_URL ?? process.env.PG_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/$/, '');

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const mode = options.mode ?? 'e2e';
  const namespace = options.namespace ?? (mode === 'dev' ? (process.env.BUS_NAMESPACE ?? DEV_NAMESPACE) : `e2e${randomBytes(4).toString('hex')}`);
  const databaseSuffix = options.databaseSuffix ?? (mode === 'dev' ? '' : `_e2e${testDatabaseSuffix()}`);
  const gatewayPort = options.gatewayPort ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const shared = {
    NODE_ENV: 'development',
    // As the image sets it (infra/docker/node.Dockerfile): two glibc malloc arenas.
    MALLOC_ARENA_MAX: '2',
    // As the image sets it too: V8's young generation at most 2 x 4 MiB (docs/benchmarks.md, 'Process footprint').
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=4'].filter(Boolean).join(' '),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Every process of a local stack on loopback only, as the gateway (issue 39: make dev bound the
    // services on every interface, where anyone on the network reached them past the gateway).
    HOST: '127.0.0.1',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_NAMESPACE: namespace,
    PUBLIC_WEB_URL: options.publicWebUrl ?? baseUrl,
    // The read-your-writes barrier of privacy changes: production's bound (the runtime's default), here too.
    // An erasure's second pass follows the first by a minute in production (auth's ERASURE_RESWEEP_MS);
    // the tests' writes take milliseconds, so 3 s covers them and keeps the deletion tests short.
    ERASURE_RESWEEP_MS: mode === 'dev' ? undefined : '3000',
    // Notification mails batch a person's news per window (10 minutes in production): a developer
    // sees a mail within a minute, a test within a second.
    MAIL_BATCH_MS: mode === 'dev' ? '60000' : '1000',
    // Production publishes a rotating few of the challenge kinds each day; the tests get every
    // kind every day, so a browser test of any kind finds it whatever the date (make dev rotates).
    CHALLENGES_PER_DAY: mode === 'dev' ? undefined : String(CHALLENGE_KIND_NAMES.length),
    // Every test registers its people from 127.0.0.1: production's 10 per 15 minutes per address
    // (auth's REGISTER_RATE_LIMIT_MAX) is tested on its own (infra/security/auth-abuse.test.ts).
    REGISTER_RATE_LIMIT_MAX: mode === 'dev' ? undefined : '1000000',
    // A made-up pub menu on brewpubs, so the bar detail shows food (no open data has menus).
    DEMO_MENUS: 'on',
    // The local queue board's operator password (make dev prints it; compose requires its own).
    QUEUE_BOARD_PASSWORD: process.env.QUEUE_BOARD_PASSWORD ?? 'hoptrack-queues',
    ...options.env,
  };

  const started: RunningProcess[] = [];
  const addresses: ServiceAddress[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((proc) => proc.stop()));
    await Promise.all(addresses.map((address) => address.close()));
  };
  try {
    // Files go to S3: the operator's endpoint if given, else a local s3rver (a folder per e2e run).
    let s3Endpoint = process.env.S3_ENDPOINT;
    let s3: RunningProcess | null = null;
    if (!s3Endpoint) {
      s3 = await startProcess({
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
    // Mail goes to SMTP: the operator's relay if given, else the local catcher (nothing leaves the machine).
    let smtpUrl = options.env?.SMTP_URL ?? process.env.SMTP_URL;
    let mailUrl: string | null = null;
    if (!smtpUrl) {
      const smtpPort = options.mailPorts?.smtp ?? (await freePort());
      const mail = await startProcess({
        name: 'mail',
        entry: 'infra/stack/mail.ts',
        port: options.mailPorts?.http ?? (await freePort()),
        readyPath: '/messages',
        env: { SMTP_PORT: String(smtpPort) },
        echo: options.echo,
      });
      started.push(mail);
      smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
      mailUrl = mail.url;
    }
    // Services start side by side; each creates and migrates its own database.
    // Ports first: sessions stores photos through the media service's internal API, so it needs media's
    // address; media's worker asks sessions which of those photos a session names (the orphan sweep).
    const replicas = Math.max(1, options.replicas ?? 1);
    const ports = Object.fromEntries(
      await Promise.all(
        SERVICES.map(async (service) => {
          const fixed = options.servicePorts?.[service.name];
          const list = await Promise.all(Array.from({ length: replicas }, async (_, i) => (fixed ? fixed + 100 * i : await freePort())));
          return [service.name, list] as const;
        }),
      ),
    ) as Record<ServiceName, number[]>;
    // With one instance, services call each other directly; with several, through one address each.
    const addressOf = async (name: ServiceName): Promise<string> => {
      const list = ports[name];
      if (list.length === 1) return `http://127.0.0.1:${list[0]}`;
      const address = await startServiceAddress(list);
      addresses.push(address);
      return address.url;
    };
    const authUrl = await addressOf('auth');
    const mediaUrl = await addressOf('media');
    const sessionsUrl = await addressOf('sessions');
    const running = await Promise.all(
      SERVICES.flatMap((service) =>
        ports[service.name].map(async (port, i) => {
          const proc = await startProcess({
            name: i === 0 ? service.name : `${service.name}-${i + 1}`,
            entry: service.entry,
            port,
            // Ready means its database, bus and Redis answer, not only that it listens: a test's
            // first call on a busy machine must not meet a service still connecting.
            readyPath: '/readyz',
            env: {
              ...shared,
              // Postgres here allows 100 connections in all, and two files of the suite run side by side, each a
              // stack of a dozen processes: 4 a process (2 for two copies) keeps both under it (replicas x pool under
              // max_connections, docs/scaling.md). At production's 10 two stacks' bursts met "too many clients"
              // (media answered 500 in the visibility matrix, 2026-12-04). make dev keeps 10; the bench sets its own.
              ...(mode === 'dev' || options.env?.DATABASE_POOL_MAX ? {} : { DATABASE_POOL_MAX: replicas > 1 ? '2' : '4' }),
              S3_ENDPOINT: s3Endpoint,
              SMTP_URL: smtpUrl,
              MEDIA_INTERNAL_URL: mediaUrl,
              SESSIONS_INTERNAL_URL: sessionsUrl,
              // Verify tokens as production does: with auth's published keys, fetched over HTTP.
              AUTH_JWKS_URL: service.name === 'auth' ? undefined : `${authUrl}/.well-known/jwks.json`,
              DATABASE_URL: service.database ? `${pgBase()}/${service.database}${databaseSuffix}` : undefined,
            },
            echo: options.echo,
          });
          started.push(proc);
          return [service, proc] as const;
        }),
      ),
    );
    const instances = Object.fromEntries(SERVICES.map((service) => [service.name, running.filter(([s]) => s === service).map(([, proc]) => proc)])) as Record<
      ServiceName,
      RunningProcess[]
    >;
    const gateway = await startGateway({
      port: gatewayPort,
      metricsPort: options.gatewayMetricsPort,
      echo: options.echo,
      env: {
        ...shared,
        HOST: process.env.HOST ?? '127.0.0.1',
        // Every instance of a service: the gateway balances over those whose /readyz answers.
        ...Object.fromEntries(SERVICES.flatMap((service) => (service.gatewayVar ? [[service.gatewayVar, instances[service.name].map((p) => p.url).join(',')]] : []))),
        // E2E_WEB_DIST lets parallel work build and serve its own copy of the app (a rebuild of
        // web/dist would delete the lazy chunks a running browser test still loads).
        WEB_DIST_DIR: options.serveWeb === false ? '' : (process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'web/dist')),
        GATEWAY_RATE_LIMIT_PREFIX: `${namespace}:`,
      },
    });
    started.push(gateway);
    return {
      baseUrl,
      services: Object.fromEntries(SERVICES.map((service) => [service.name, instances[service.name][0]])) as Record<ServiceName, RunningProcess>,
      instances,
      replicas,
      gateway,
      mailUrl,
      s3,
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
