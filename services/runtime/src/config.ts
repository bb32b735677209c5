import { z } from 'zod';
import { createTokenVerifier, DEV_JWKS, DEV_SIGNING_KEY, type TokenVerifier } from './auth/tokens';

/** Settings every service shares; a service extends this with its own. */
export const baseConfigSchema = z.object({
  /**
   * Unset means production: only an explicit development or test mode returns
   * reset tokens in answers or accepts the published development keys
   * (`make dev` and the tests set it).
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
  /**
   * The database the start-up migrations use, when it is not DATABASE_URL:
   * behind a transaction-pooling PgBouncer (deploy/k8s), DATABASE_URL is the
   * pooler and this the direct read-write Service, because the migrator's
   * session-level advisory lock must stay on one server connection.
   */
  DATABASE_MIGRATION_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }).optional(),
  /** Connections each process may hold; the replicas of all services together must stay under Postgres' max_connections. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
  /** Prefix of every subject and stream, so deployments (and test runs) sharing a NATS server stay apart. */
  /** Copies of each JetStream stream: 1 on a single NATS server, 3 on a three-node cluster (deploy/k8s). */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  BUS_NAMESPACE: z.string().regex(/^[a-z][a-z0-9_-]*$/i, { error: 'letters, digits, - and _ only' }).default('hoptrack'),
  /**
   * Auth's published keys (/.well-known/jwks.json on its internal address),
   * which every other service verifies tokens with. Unset outside production:
   * the development key's public half.
   */
  AUTH_JWKS_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
  /**
   * Whose X-Forwarded-For to believe, so rate limits and logs see the client
   * address through the gateway: the addresses the gateway calls from, as
   * proxy-addr names them (`loopback`, `uniquelocal`, CIDRs, comma-separated),
   * or `true`/`false`. Loopback by default (the gateway beside the services in
   * `make dev`); compose and Kubernetes name their private networks. Never
   * `true` (issue 39: a client calling a service directly set its own address).
   */
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((value): boolean | string[] => (value === 'true' ? true : value === 'false' ? false : value.split(',').map((part) => part.trim()).filter(Boolean))),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * After SIGTERM, how long the process keeps serving while /readyz says 503,
   * before it stops taking connections: long enough for every gateway (and a
   * Kubernetes endpoint update) to take it out of rotation, so no request
   * meets a closing server. Longer than the gateway's readiness poll.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * How long a privacy change (block, unfriend, mute, private switch, password
   * reset, deletion) waits for the other services' read models before
   * answering; 0 = not at all. Reached only when a consumer is stalled (a
   * healthy one applies the change in milliseconds; a retired one is not
   * waited for): 10 s, the bound the tests run with too (issue 38, item 4) —
   * a busy machine lags a healthy consumer past 2 s, and then the answer would
   * promise a refusal that had not happened yet.
   */
  READ_MODEL_BARRIER_MS: z.coerce.number().int().min(0).max(30_000).default(10_000),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment once at boot. A bad or missing variable stops the
 * process with one message listing every problem, rather than failing later.
 * Empty variables are treated as unset, so their defaults apply.
 */
export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  // An empty variable counts as unset (compose writes `KEY=` for optional settings left blank).
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(given);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const received = given[name] === undefined ? 'is not set' : 'is invalid';
    return `${name} ${received}: ${issue.message}`;
  });
  throw new ConfigError(service, problems);
}

/**
 * The key of signed file URLs and upload tokens outside production. Published,
 * like the development signing key, so production refuses it.
 */
export const DEV_FILE_URL_SECRET = 'hoptrack-development-file-url-secret-change-me';

export const DEV_UNSUBSCRIBE_SECRET = 'hoptrack-development-unsubscribe-secret-change-me';
/** UNSUBSCRIBE_SECRET, for the services that mail (notifications): signs the links that turn e-mail off without signing in. */
export const unsubscribeSecretSchema = z.string().min(32, { error: 'must be at least 32 characters' }).default(DEV_UNSUBSCRIBE_SECRET);

/** FILE_URL_SECRET, for the services that sign or check file URLs (sessions, media): its own key, not the tokens'. */
export const fileUrlSecretSchema = z.string().min(32, { error: 'must be at least 32 characters' }).default(DEV_FILE_URL_SECRET);

/**
 * A service's config schema: the base settings with its port and database
 * defaults, plus its own. In production, what a development default would
 * leave open stops the process instead: no JWKS URL (a service would trust
 * the published development key), the published file-URL or unsubscribe
 * secret, or the development signing key.
 */
export function serviceConfigSchema<E extends z.ZodRawShape>(defaults: { port: number; database: string }, extra: E) {
  return baseConfigSchema
    .extend({
      PORT: z.coerce.number().int().min(1).max(65535).default(defaults.port),
      DATABASE_URL: baseConfigSchema.shape.DATABASE_URL.default(`postgresql://postgres@127.0.0.1:5432/${defaults.database}`),
    })
    .extend(extra)
    .superRefine((config, ctx) => {
      const given = config as {
        NODE_ENV: string;
        AUTH_JWKS_URL?: string;
        FILE_URL_SECRET?: string;
        UNSUBSCRIBE_SECRET?: string;
        JWT_SIGNING_KEYS?: Array<{ kid: string; x?: string; d?: string }>;
      };
      if (given.NODE_ENV !== 'production') return;
      // Auth signs (it has JWT_SIGNING_KEYS); everyone else verifies with its published keys.
      if (!given.JWT_SIGNING_KEYS && !given.AUTH_JWKS_URL) ctx.addIssue({ code: 'custom', path: ['AUTH_JWKS_URL'], message: 'is required in production' });
      if (given.FILE_URL_SECRET === DEV_FILE_URL_SECRET) ctx.addIssue({ code: 'custom', path: ['FILE_URL_SECRET'], message: 'is required in production' });
      if (given.UNSUBSCRIBE_SECRET === DEV_UNSUBSCRIBE_SECRET) ctx.addIssue({ code: 'custom', path: ['UNSUBSCRIBE_SECRET'], message: 'is required in production' });
      // The published key by its material, whatever id it is given (issue 39: only the id was compared).
      const published = (key: { kid: string; x?: string; d?: string }) => key.kid === DEV_SIGNING_KEY.kid || key.x === DEV_SIGNING_KEY.x || key.d === DEV_SIGNING_KEY.d;
      if (given.JWT_SIGNING_KEYS?.some(published)) {
        ctx.addIssue({ code: 'custom', path: ['JWT_SIGNING_KEYS'], message: 'is required in production (the development key is published)' });
      }
    });
}

/** The verifier of a service's config: auth's JWKS URL, or outside production the development key. */
export function tokenVerifierFor(config: Pick<BaseConfig, 'AUTH_JWKS_URL'>, clock?: () => Date): TokenVerifier {
  return createTokenVerifier({ jwks: config.AUTH_JWKS_URL ? new URL(config.AUTH_JWKS_URL) : DEV_JWKS, clock });
}

/** The URL a service migrates at: DATABASE_MIGRATION_URL when set (past a transaction pooler), else DATABASE_URL. */
export function directDatabaseUrl(config: Pick<BaseConfig, 'DATABASE_URL' | 'DATABASE_MIGRATION_URL'>): string {
  return config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL;
}
