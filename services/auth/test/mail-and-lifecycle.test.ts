import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess } from '@hoptrack/testing/processes';
import { startTestAuth, testEnv, type TestAuth } from './support';
import { testNamespace } from '@hoptrack/testing';

describe('reset e-mail over SMTP', () => {
  const received: Array<{ to: string; body: string }> = [];
  let smtp: SMTPServer;
  let auth: TestAuth;

  beforeAll(async () => {
    // A real SMTP server on loopback: nodemailer speaks the protocol to it.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body: Buffer.concat(chunks).toString() });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    auth = await startTestAuth({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await auth.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails the reset link to the account holder', async () => {
    const { body } = await auth.register();
    const res = await auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: body.email } });
    expect(res.statusCode).toBe(200);
    // Sent by the mail relay after the answer (off the request path).
    await auth.mail.drain();
    const mail = received.find((m) => m.to === body.email && m.body.includes('Subject: Reset'));
    expect(mail?.body).toContain('Subject: Reset your Hoptrack password');
    // The body is quoted-printable: undo soft line breaks and =XX escapes before reading the link.
    const text = mail?.body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(text).toContain(`http://web.test/reset-password?token=${res.json().token}`);
  });

  it('sends nothing for an unknown e-mail', async () => {
    const before = received.length;
    await auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'ghost@example.com' } });
    await auth.mail.drain();
    expect(received.length).toBe(before);
    // Its job was written (the same work as for a known address) and is never sent.
    expect(await auth.prisma.mailJob.count({ where: { kind: 'unknown-address', status: 'skipped', recipient: null } })).toBeGreaterThan(0);
  });
});

describe('operability', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startTestAuth();
  });
  afterAll(() => auth.close());

  it('reports each dependency on /readyz', async () => {
    const res = await auth.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok', nats: 'ok' } });
  });

  it('exposes request durations by route template and status on /metrics', async () => {
    await auth.app.inject({ method: 'GET', url: '/api/auth/verify-reset-token/unknown' });
    const metrics = await auth.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /http_request_duration_seconds_count\{service="auth",method="GET",route="\/api\/auth\/verify-reset-token\/:token",status_code="400"\} 1/,
    );
    expect(metrics.body).toContain('process_cpu_seconds_total');
  });

  it('refuses to start on a bad environment with a readable message', async () => {
    await expect(
      startProcess({
        name: 'auth-misconfigured',
        entry: 'services/auth/src/server.ts',
        port: await freePort(),
        env: testEnv(testNamespace('cfg'), { NODE_ENV: 'production', DATABASE_URL: 'mysql://nope', REDIS_URL: 'redis://127.0.0.1:6379' }),
        readyTimeoutMs: 10_000,
      }),
    ).rejects.toThrow(/exited with 78[\s\S]*DATABASE_URL is invalid: must be a postgresql:\/\/ URL/);
  });

  it('refuses to start in production (also when NODE_ENV is unset) with the published development signing key', async () => {
    for (const NODE_ENV of ['production', undefined]) {
      await expect(
        startProcess({
          name: 'auth-dev-key',
          entry: 'services/auth/src/server.ts',
          port: await freePort(),
          env: testEnv(testNamespace('cfg'), { NODE_ENV }),
          readyTimeoutMs: 10_000,
        }),
        `NODE_ENV=${NODE_ENV}`,
      ).rejects.toThrow(/exited with 78[\s\S]*JWT_SIGNING_KEYS is not set: is required in production/);
    }
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const proc = await startProcess({ name: 'auth-term', entry: 'services/auth/src/server.ts', port: await freePort(), env: testEnv(testNamespace('term')) });
    const exited = once(proc.child, 'exit');
    proc.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(proc.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });
});
