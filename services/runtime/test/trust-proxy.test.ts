import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseConfigSchema, loadConfig } from '../src/config';
import { createMetrics } from '../src/http/metrics';
import { createServer } from '../src/http/server';
import { memoryLogger } from '@hoptrack/testing';

/**
 * Whose X-Forwarded-For a service believes (issue 39: a client calling auth
 * directly named its own address and slipped the login limit). By default
 * only a caller on loopback, where the gateway of `make dev` is; compose and
 * Kubernetes name their private networks.
 */
const schema = baseConfigSchema.extend({ PORT: z.coerce.number() });
const trustOf = (value?: string) => loadConfig('svc', schema, { PORT: '1', DATABASE_URL: 'postgresql://u@h/db', ...(value === undefined ? {} : { TRUST_PROXY: value }) }).TRUST_PROXY;

async function ipSeen(trustProxy: boolean | string[], remoteAddress: string): Promise<string> {
  const app = createServer({ logger: memoryLogger('svc').logger, metrics: createMetrics('svc'), trustProxy, uncontracted: { reason: 'a test route that answers the address it saw' } });
  app.get('/ip', async (request) => ({ ip: request.ip }));
  const res = await app.inject({ method: 'GET', url: '/ip', remoteAddress, headers: { 'x-forwarded-for': '203.0.113.7' } });
  await app.close();
  return (res.json() as { ip: string }).ip;
}

describe('X-Forwarded-For', () => {
  it('is believed by default only from loopback, where the gateway calls from', async () => {
    expect(trustOf()).toEqual(['loopback']);
    expect(await ipSeen(trustOf(), '127.0.0.1')).toBe('203.0.113.7');
    expect(await ipSeen(trustOf(), '192.0.2.44')).toBe('192.0.2.44');
  });

  it('is believed from the private networks compose and Kubernetes name, and never from a public address', async () => {
    expect(trustOf('uniquelocal')).toEqual(['uniquelocal']);
    expect(await ipSeen(trustOf('uniquelocal'), '10.1.2.3')).toBe('203.0.113.7');
    expect(await ipSeen(trustOf('uniquelocal'), '198.51.100.20')).toBe('198.51.100.20');
    expect(trustOf('false')).toBe(false);
  });
});
