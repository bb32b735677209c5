import { describe, expect, it } from 'vitest';
import { nextPollDelay, Poller } from '../src/bus/poller';
import { createLogger } from '../src/logger';

/**
 * The poller's idle back-off (issue 41: an idle stack's relays looked for
 * leftovers every second in every process): timer passes that find nothing
 * wait longer and longer, up to a bound; a poke, found work or a failure
 * bring the wait back to pollMs.
 */
describe('Poller', () => {
  const options = { pollMs: 100, idleMaxMs: 800 };

  it('doubles the wait after each timer pass that found nothing, up to idleMaxMs', () => {
    const waits = [100];
    for (let i = 0; i < 5; i++) waits.push(nextPollDelay(waits.at(-1) ?? 0, { poked: false, found: false }, options));
    expect(waits).toEqual([100, 200, 400, 800, 800, 800]);
  });

  it('comes back to pollMs after a poke or found work, and never backs off without idleMaxMs', () => {
    expect(nextPollDelay(800, { poked: true, found: false }, options)).toBe(100);
    expect(nextPollDelay(800, { poked: false, found: true }, options)).toBe(100);
    expect(nextPollDelay(100, { poked: false, found: false }, { pollMs: 100 })).toBe(100);
  });

  it('waits as nextPollDelay says between its timer passes, and again from pollMs after a failure', async () => {
    const at: number[] = [];
    let fail = false;
    const poller = new Poller(
      async () => {
        at.push(performance.now());
        if (fail) throw new Error('the bus is away');
        return 0;
      },
      { pollMs: 20, idleMaxMs: 160, logger: createLogger('poller-test', 'silent'), failure: 'failed' },
    );
    poller.start();
    await expect.poll(() => at.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    // A timer never fires early: the gaps are at least 20, 40, 80, 160, 160 ms (without the back-off, 20 each).
    const gaps = at.slice(1, 6).map((t, i) => t - (at[i] ?? 0));
    [20, 40, 80, 160, 160].forEach((least, i) => expect(gaps[i]).toBeGreaterThanOrEqual(least - 2));
    fail = true;
    const failedFrom = at.length;
    await expect.poll(() => at.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(failedFrom + 4);
    await poller.stop();
    // Failing passes keep the short wait: four of them took well under two idle waits.
    const failing = at.slice(failedFrom);
    expect((failing.at(-1) ?? 0) - (failing[0] ?? 0)).toBeLessThan(3 * 160);
  });
});
