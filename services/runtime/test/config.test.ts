import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfigSchema, ConfigError, loadConfig } from '../src/config';

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
