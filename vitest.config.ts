import { defineConfig } from 'vitest/config';

/**
 * expect.poll gives up after this (vitest's default is 1 s): a bound for a stuck
 * system, not a window, since a poll ends at the first success. A machine busy
 * with other work delays consumers and pages by seconds.
 */
const pollBound = { poll: { timeout: 30_000, interval: 50 } };
/**
 * Test and hook timeouts are bounds of the same kind: they end a stuck test, and
 * a test that passes takes what it takes. A stack boot (ten processes) or a
 * hundred argon2 logins on a loaded 2-core box took over a minute.
 */
const integrationBounds = { testTimeout: 120_000, hookTimeout: 300_000 };
const browserBounds = { testTimeout: 180_000, hookTimeout: 300_000 };

/**
 * Three tiers (see docs/testing.md): unit and integration tests of the
 * services and the gateway run against the real Postgres, Redis and NATS;
 * e2e drives the built web app in Debian's chromium through the gateway.
 * Integration files run two at a time, browser files one at a time (see each project).
 */
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          name: 'integration',
          expect: pollBound,
          include: ['proto/**/*.test.ts', 'services/**/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'infra/**/*.test.ts'],
          // Two files at a time: most of a file's time is waiting (processes starting, events
          // flowing), not CPU. Each worker has databases of its own (testDatabaseSuffix adds the
          // pool id) and every file its own bus namespace, so files never share state.
          fileParallelism: true,
          maxWorkers: 2,
          // A plain `vitest run` runs the tiers one after the other, never side by side.
          sequence: { groupOrder: 0 },
          ...integrationBounds,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          expect: pollBound,
          include: ['web/e2e/**/*.test.ts'],
          // One stack for every browser file, handed to them with provide/inject (see the file).
          globalSetup: ['web/e2e/global-setup.ts'],
          fileParallelism: false,
          ...browserBounds,
        },
      },
    ],
  },
});
