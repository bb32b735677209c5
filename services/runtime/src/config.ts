import { z } from 'zod';

/** Settings every service shares; a service extends this with its own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
  /** Prefix of every subject and stream, so deployments (and test runs) sharing a NATS server stay apart. */
  BUS_NAMESPACE: z.string().regex(/^[a-z][a-z0-9_-]*$/i, { error: 'letters, digits, - and _ only' }).default('hoptrack'),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
  /** Trust X-Forwarded-For from the gateway, so rate limits and logs see the client address. */
  TRUST_PROXY: z.stringbool().default(true),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * How long a privacy change (block, unfriend, mute, private switch, password
   * reset) waits for the other services' read models before answering; 0 = not at all.
   */
  READ_MODEL_BARRIER_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
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

export const DEV_JWT_SECRET = 'hoptrack-development-secret-change-me-please';

/**
 * A service's config schema: the base settings with its port and database
 * defaults, plus its own. Outside production the development JWT secret is
 * the default; in production it is refused, so a forgotten secret stops the
 * process rather than signing tokens anyone could forge.
 */
export function serviceConfigSchema<E extends z.ZodRawShape>(defaults: { port: number; database: string }, extra: E) {
  return baseConfigSchema
    .extend({
      PORT: z.coerce.number().int().min(1).max(65535).default(defaults.port),
      DATABASE_URL: baseConfigSchema.shape.DATABASE_URL.default(`postgresql://postgres@127.0.0.1:5432/${defaults.database}`),
      JWT_SECRET: baseConfigSchema.shape.JWT_SECRET.default(DEV_JWT_SECRET),
    })
    .extend(extra)
    .superRefine((config, ctx) => {
      const { JWT_SECRET: secret, NODE_ENV: env } = config as { JWT_SECRET: string; NODE_ENV: string };
      if (env === 'production' && secret === DEV_JWT_SECRET) {
        ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
      }
    });
}
