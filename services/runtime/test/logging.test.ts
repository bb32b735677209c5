import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/http/metrics';
import { createServer } from '../src/http/server';
import { redactUrl } from '../src/logger';
import { memoryLogger } from '@hoptrack/testing';

describe('request logs', () => {
  it('carry the request id and never a reset token from the URL', async () => {
    const { logger, lines } = memoryLogger('svc');
    const app = createServer({ logger, metrics: createMetrics('svc') });
    await app.inject({ method: 'GET', url: '/api/auth/verify-reset-token/s3cr3t-token?x=1', headers: { 'x-request-id': 'req-42' } });
    await app.inject({ method: 'GET', url: '/reset-password?token=s3cr3t-token' });
    await app.close();
    const text = JSON.stringify(lines);
    expect(text).toContain('/api/auth/verify-reset-token/[redacted]');
    expect(text).not.toContain('s3cr3t-token');
    expect(lines.some((l) => l.reqId === 'req-42')).toBe(true);
  });

  it('redacts only the secret part', () => {
    expect(redactUrl('/a/verify-reset-token/abc/x?y=1')).toBe('/a/verify-reset-token/[redacted]/x?y=1');
    expect(redactUrl('/p?a=1&token=abc&b=2')).toBe('/p?a=1&token=[redacted]&b=2');
    expect(redactUrl('/api/me')).toBe('/api/me');
  });
});
