import { defineConfig } from 'vitest/config';
import { BROWSER_TEST_BOUND_MS, CONDITION_BOUND_MS, HOOK_BOUND_MS, INTEGRATION_TEST_BOUND_MS } from './infra/testing/bounds';

/**
 * expect.poll, test and hook timeouts: bounds that end a stuck test, from the one
 * home of the suite's bounds (infra/testing/bounds.ts says why they are generous).
 */
const pollBound = { poll: { timeout: CONDITION_BOUND_MS, interval: 50 } };
const integrationBounds = { testTimeout: INTEGRATION_TEST_BOUND_MS, hookTimeout: HOOK_BOUND_MS };
const browserBounds = { testTimeout: BROWSER_TEST_BOUND_MS, hookTimeout: HOOK_BOUND_MS };

/**
 * Three tiers (see docs/testing.md): unit and integration tests of the
 * services and the gateway run against the real Postgres, Redis and NATS;
 * e2e drives the built web app in Debian's chromium through the gateway.
 * Integration files run two at a time, browser files one at a time (see each project).
 */
export default defineConfig({
  test: {
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
