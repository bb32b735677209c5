import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEV_SIGNING_KEY } from '../src/auth/tokens';
import { baseConfigSchema, ConfigError, loadConfig, serviceConfigSchema } from '../src/config';

const schema = baseConfigSchema.extend({ PORT: z.coerce.number().int().min(1).max(65535) });

describe('loadConfig', () => {
  it('lists every problem in one readable message', () => {
    let error: unknown;
    try {
      loadConfig('svc', schema, { DATABASE_URL: 'mysql://x', AUTH_JWKS_URL: 'ftp://keys', PORT: 'eighty' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('svc: invalid configuration');
    expect(message).toContain('DATABASE_URL is invalid: must be a postgresql:// URL');
    expect(message).toContain('AUTH_JWKS_URL is invalid: must be an http(s):// URL');
    expect(message).toMatch(/PORT is invalid/);
  });

  it('treats an empty variable as unset: the default applies, a required one is reported missing', () => {
    const withOptional = schema.extend({ SMTP_URL: z.url().optional(), LOG_LEVEL: baseConfigSchema.shape.LOG_LEVEL });
    const config = loadConfig('svc', withOptional, { DATABASE_URL: 'postgresql://h/db', PORT: '1', SMTP_URL: '', LOG_LEVEL: '' });
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('info');
    expect(() => loadConfig('svc', schema, { DATABASE_URL: '', PORT: '1' })).toThrow(/DATABASE_URL is not set/);
  });

  it('names a variable that is not set', () => {
    expect(() => loadConfig('svc', schema, { PORT: '1' })).toThrow(/DATABASE_URL is not set/);
  });

  it('applies defaults and coerces numbers and booleans', () => {
    const config = loadConfig('svc', schema, {
      DATABASE_URL: 'postgresql://u@h/db',
      PORT: '4100',
      TRUST_PROXY: 'false',
    });
    expect(config).toMatchObject({ PORT: 4100, TRUST_PROXY: false, NODE_ENV: 'production', BUS_NAMESPACE: 'hoptrack' });
  });
});

describe('the production guard against the published development key', () => {
  const keys = baseConfigSchema.extend({ JWT_SIGNING_KEYS: z.array(z.object({ kid: z.string(), x: z.string(), d: z.string() })) });
  const production = (key: { kid: string; x: string; d: string }) =>
    serviceConfigSchema({ port: 4001, database: 'x' }, { JWT_SIGNING_KEYS: keys.shape.JWT_SIGNING_KEYS }).safeParse({
      NODE_ENV: 'production',
      JWT_SIGNING_KEYS: [key],
      FILE_URL_SECRET: 'a-production-file-url-secret-of-length',
      UNSUBSCRIBE_SECRET: 'a-production-unsubscribe-secret-of-length',
    });
  const refusedKeys = (result: ReturnType<typeof production>) => (result.success ? [] : result.error.issues.filter((i) => i.path[0] === 'JWT_SIGNING_KEYS').map((i) => i.message));

  it('refuses the key by its material, under any key id (issue 39: only the id was compared)', () => {
    expect(refusedKeys(production({ ...DEV_SIGNING_KEY }))).toHaveLength(1);
    expect(refusedKeys(production({ ...DEV_SIGNING_KEY, kid: 'renamed-2026' }))).toEqual(['is required in production (the development key is published)']);
  });

  it('takes a key of its own', () => {
    expect(refusedKeys(production({ kid: 'prod-1', x: 'own-public-half', d: 'own-private-half' }))).toEqual([]);
  });
});
