import { generateSigningKey } from '@hoptrack/runtime';
import { mannWhitneyZ, median, NO_DIFFERENCE_Z, testDatabaseUrl, testNamespace } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';

/**
 * Issue 9, items 16 and 17, through the real gateway in front of the real
 * auth process with its production limits (20 logins per 15 minutes per
 * account and address): password guessing with a forged X-Forwarded-For on
 * every try, and the forgot-password answer and timing for known and
 * unknown e-mails.
 */
let auth: RunningProcess;
let gateway: RunningProcess;
const namespace = testNamespace('abuse');
const PASSWORD = 'the-real-password-1';
const run = Math.random().toString(36).slice(2, 8);
const victim = { email: `victim-${run}@abuse.test`, username: `victim_${run}`, displayName: 'Victim', password: PASSWORD };

beforeAll(async () => {
  auth = await startProcess({
    name: 'auth',
    entry: 'services/auth/src/server.ts',
    port: await freePort(),
    env: {
      // Production, as users meet it: no reset token in the answer.
      NODE_ENV: 'production',
      JWT_SIGNING_KEYS: JSON.stringify([await generateSigningKey('abuse-test')]),
      // Production refuses the published development key of upload links too.
      FILE_URL_SECRET: 'auth-abuse-test-file-url-secret-of-32+',
      FORGOT_RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: testDatabaseUrl('auth_abuse'),
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      // The limiter's Redis keys are per bus namespace: a fresh one starts with no counts.
      BUS_NAMESPACE: namespace,
    },
  });
  gateway = await startGateway({ env: { AUTH_SERVICE_URL: auth.url, GATEWAY_RATE_LIMIT_PREFIX: `${namespace}:gw:` } });
  const res = await post('/api/auth/register', victim);
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await gateway?.stop();
  await auth?.stop();
});

function post(path: string, body: object, headers: Record<string, string> = {}) {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
const randomIp = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 254) + 1).join('.');

describe('login brute force through the gateway', () => {
  it('lets at most the per-account limit of guesses through, whatever X-Forwarded-For says', async () => {
    const ATTEMPTS = 100;
    let reachedPasswordCheck = 0;
    let limited = 0;
    for (let i = 0; i < ATTEMPTS; i++) {
      const res = await post('/api/auth/login', { email: victim.email, password: `guess-${i}` }, { 'x-forwarded-for': randomIp(), 'x-real-ip': randomIp() });
      if (res.status === 401) reachedPasswordCheck += 1;
      else if (res.status === 429) limited += 1;
      else throw new Error(`unexpected ${res.status}: ${await res.text()}`);
    }
    console.info(`[figure] login brute force with a forged X-Forwarded-For on each try: ${reachedPasswordCheck} of ${ATTEMPTS} guesses reached the password check, ${limited} refused with 429`);
    expect(reachedPasswordCheck).toBeLessThanOrEqual(20);
    expect(limited).toBe(ATTEMPTS - reachedPasswordCheck);
    // Even the right password is refused from that client until the window passes.
    expect((await post('/api/auth/login', { email: victim.email, password: PASSWORD }, { 'x-forwarded-for': randomIp() })).status).toBe(429);
  });
});

describe('forgot password', () => {
  it('answers known and unknown e-mails byte for byte alike, in the same time (60 each, alternating, through the gateway)', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const bodies = new Set<string>();
    // Alternate, so drift in the machine's load hits both alike.
    for (let i = 0; i < 65; i++) {
      const pair = [
        [victim.email, known],
        [`nobody-${run}-${i}@abuse.test`, unknown],
      ] as const;
      for (const [email, into] of i % 2 === 0 ? pair : [...pair].reverse()) {
        const started = performance.now();
        const res = await post('/api/auth/forgot-password', { email });
        const body = await res.text();
        // The first five of each warm up caches and the JIT; not timed.
        if (i >= 5) into.push(performance.now() - started);
        expect(res.status).toBe(200);
        bodies.add(`${res.headers.get('content-type')} ${body}`);
      }
    }
    const z = mannWhitneyZ(known, unknown);
    console.info(
      `[figure] forgot-password through the gateway: median ${median(known).toFixed(1)} ms for a known e-mail, ${median(unknown).toFixed(1)} ms for an unknown one (${known.length} each), Mann-Whitney z = ${z.toFixed(2)}`,
    );
    // One whole answer for both: it never says whether the account exists (production: no token in it).
    expect([...bodies]).toEqual(['application/json; charset=utf-8 {"message":"If an account exists for that email, a password reset link has been sent."}']);
    expect(Math.abs(z)).toBeLessThan(NO_DIFFERENCE_Z);
  });
});
