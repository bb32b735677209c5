import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/http/metrics';
import { createServer } from '../src/http/server';
import { createLogger } from '../src/logger';

/**
 * /readyz answers from the last finished dependency check (readiness.ts): a
 * slow but working dependency keeps the instance ready and the answer fast,
 * one check serves everyone asking meanwhile, and a dependency that stops
 * answering is still reported, by the next answers.
 */
describe('/readyz', () => {
  const build = (check: () => Promise<unknown>) =>
    createServer({ logger: createLogger('readiness-test', 'silent'), metrics: createMetrics('readiness-test'), readiness: { store: check } });
  const readyz = async (app: ReturnType<typeof build>) => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() as { checks: Record<string, string> } };
  };

  it('keeps answering at once, from the last check, while a slow dependency is asked again', async () => {
    let calls = 0;
    let slow = false;
    let release: () => void = () => {};
    const app = build(async () => {
      calls++;
      if (slow) await new Promise<void>((resolve) => (release = resolve));
    });
    expect((await readyz(app)).status).toBe(200);
    slow = true;
    // Once the last check is old enough, the next question starts a new one and does not wait for it.
    await expect.poll(async () => ((await readyz(app)).status === 200 ? calls : 0)).toBe(2);
    // Every question meanwhile is answered from the last result; the check in flight serves them all.
    for (let i = 0; i < 20; i++) expect((await readyz(app)).status).toBe(200);
    expect(calls).toBe(2);
    release();
    await app.close();
  });

  it('reports a dependency that stopped answering, with its reason', async () => {
    let down = false;
    const app = build(async () => {
      if (down) throw new Error('bucket hoptrack is missing');
    });
    expect((await readyz(app)).status).toBe(200);
    down = true;
    await expect.poll(async () => (await readyz(app)).body.checks.store).toBe('bucket hoptrack is missing');
    expect((await readyz(app)).status).toBe(503);
    down = false;
    await expect.poll(async () => (await readyz(app)).status).toBe(200);
    await app.close();
  });

  it('waits for the first check: an instance is never ready before its dependencies answered once', async () => {
    const app = build(() => Promise.reject(new Error('no answer')));
    expect(await readyz(app)).toMatchObject({ status: 503, body: { checks: { store: 'no answer' } } });
    await app.close();
  });
});
