/**
 * system.config.yml reads REDIS_HOST/REDIS_PORT/REDIS_DB, while the rest of
 * the stack is configured with one REDIS_URL. When only REDIS_URL is given,
 * derive the three from it so one variable configures everything.
 */
export function redisEnvFromUrl(env: NodeJS.ProcessEnv): void {
  if (!env.REDIS_URL || env.REDIS_HOST) return;
  const url = new URL(env.REDIS_URL);
  if (url.protocol !== 'redis:') throw new Error(`REDIS_URL must be redis://host:port/db, got ${env.REDIS_URL}`);
  if (url.password) throw new Error('REDIS_URL with a password is not supported by the gateway yet');
  env.REDIS_HOST = url.hostname.replace(/^\[(.*)\]$/, '$1');
  env.REDIS_PORT ??= url.port || '6379';
  env.REDIS_DB ??= url.pathname.slice(1) || '0';
}
