import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '@hoptrack/runtime';
import { eventually, mannWhitneyZ, median, NO_DIFFERENCE_Z } from '@hoptrack/testing';
import type { Mailer } from '../src/domain/mailer';
import { startTestAuth, type TestAuth } from './support';

/**
 * Issue 19, item 4: forgot-password answers the same, in the same time,
 * whether or not an account has the address, and whether SMTP is fast, slow
 * or down: the mail is written as a job in the request's transaction and
 * sent by the mail relay afterwards. Production mode (no reset token in the
 * answer), as it runs for users.
 */

/** A mailer whose sends wait until the test opens the gate: SMTP as slow as the test likes. */
function gatedMailer() {
  const sent: Array<{ to: string; resetUrl: string }> = [];
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (open = resolve));
  const mailer: Mailer = {
    async send(kind, to, resetUrl) {
      // Registration's verification mails are not what these tests hold back.
      if (kind !== 'password-reset') return;
      await gate;
      sent.push({ to, resetUrl });
    },
  };
  return {
    mailer,
    sent,
    open: () => open(),
    close: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

describe('forgot-password in production', () => {
  let auth: TestAuth;
  const smtp = gatedMailer();
  beforeAll(async () => {
    const key = await generateSigningKey('forgot-test');
    auth = await startTestAuth(
      // Production refuses the published development secrets: a signing key and an upload-link key of its own.
      { NODE_ENV: 'production', JWT_SIGNING_KEYS: JSON.stringify([key]), FILE_URL_SECRET: 'forgot-password-test-file-url-secret!', FORGOT_RATE_LIMIT_MAX: '100000' },
      { mailer: smtp.mailer },
    );
  });
  afterAll(async () => {
    smtp.open();
    await auth?.close();
  });

  const forgot = (email: string) => auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: '10.50.0.1' });

  it('answers before the mail is sent: with SMTP stalled, the answer comes and the mail follows once SMTP answers', async () => {
    const { body } = await auth.register();
    smtp.close();
    const res = await forgot(body.email);
    expect(res.statusCode).toBe(200);
    expect(smtp.sent.some((m) => m.to === body.email)).toBe(false);
    const queued = await auth.prisma.mailJob.findFirst({ where: { recipient: body.email, kind: 'password-reset' } });
    expect(queued).toMatchObject({ kind: 'password-reset', status: 'pending' });
    const job = () => auth.prisma.mailJob.findUnique({ where: { id: queued?.id ?? '' } });
    smtp.open();
    await eventually(async () => (await job())?.status === 'sent', 'the mail relay sent the reset mail');
    expect(smtp.sent.find((m) => m.to === body.email)?.resetUrl).toMatch(/\/reset-password\?token=/);
    // The link (it holds the token) and the address are not kept once sent.
    expect(await job()).toMatchObject({ link: null, recipient: null });
  });

  it('answers byte for byte the same, in the same time, for an address with an account and one without (60 requests each, interleaved)', async () => {
    smtp.open();
    const { body } = await auth.register();
    const rounds = 60;
    const known: number[] = [];
    const unknown: number[] = [];
    const bodies = new Set<string>();
    // A few untimed rounds first: the first requests pay for warming caches and the JIT.
    for (let i = 0; i < 5; i++) {
      await forgot(body.email);
      await forgot(`nobody-${i}@example.com`);
    }
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so a drift of the machine's load falls on both alike.
      const order = i % 2 === 0 ? ([body.email, `nobody-${i}@example.com`] as const) : ([`nobody-${i}@example.com`, body.email] as const);
      for (const email of order) {
        const started = process.hrtime.bigint();
        const res = await forgot(email);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        expect(res.statusCode).toBe(200);
        bodies.add(`${JSON.stringify(res.headers['content-type'])} ${res.body}`);
        (email === body.email ? known : unknown).push(ms);
      }
    }
    expect([...bodies]).toEqual([
      '"application/json; charset=utf-8" {"message":"If an account exists for that email, a password reset link has been sent."}',
    ]);
    const z = mannWhitneyZ(known, unknown);
    console.info(
      `[figure] forgot-password: median ${median(known).toFixed(2)} ms with an account vs ${median(unknown).toFixed(2)} ms without (${rounds} each), Mann-Whitney z = ${z.toFixed(2)}`,
    );
    // |z| < 3.29: no difference at the 0.1 % level. Inline SMTP, or a skipped write on one side, moves it far past that.
    expect(Math.abs(z)).toBeLessThan(NO_DIFFERENCE_Z);
  });
});
