import { defineConfig } from 'vitest/config';
import { BROWSER_TEST_BOUND_MS, CONDITION_BOUND_MS, HOOK_BOUND_MS, INTEGRATION_TEST_BOUND_MS } from './infra/testing/bounds';

/**
 * expect.poll, test and hook timeouts: bounds that end a stuck test, from the one
 * home of the suite's bounds (infra/testing/bounds.ts says why they are generous).
 */
const pollBound = { poll: { timeout: CONDITION_BOUND_MS, interval: 50 } };
const integrationBounds = { testTimeout: INTEGRATION_TEST_BOUND_MS, hookTimeout: HOOK_BOUND_MS };
const browserBounds = { testTimeout: BROWSER_TEST_BOUND_MS, hookTimeout: HOOK_BOUND_MS };
/** Every test process's fetch leaves the servers' keep-alive timeout a wide margin (see the file). */
const setupFiles = ['infra/testing/client-keep-alive.ts'];
const TWO_COPY_FILES = ['infra/reliability/soak.test.ts', 'infra/reliability/rolling-restart.test.ts'];
/**
 * The slow fault tier (`make test-faults`, not `make test`): a three-node NATS
 * cluster losing its leader and going away, object storage stopped mid-upload,
 * a backup restored into an empty stack. With them `make test` would pass the
 * CI budget of 30 minutes on 2 cores (docs/testing.md), so they run on their own.
 */
const SLOW_FAULT_FILES = ['infra/faults/**/*.test.ts'];

/**
 * Three tiers (see docs/testing.md): unit and integration tests of the
 * services and the gateway run against the real Postgres, Redis and NATS;
 * e2e drives the built web app in Debian's chromium through the gateway.
 * Integration files run two at a time, then the two-copy files and the
 * browser files one at a time (see each project).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'integration',
          expect: pollBound,
          setupFiles,
          include: ['proto/**/*.test.ts', 'services/**/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'infra/**/*.test.ts'],
          exclude: [...TWO_COPY_FILES, ...SLOW_FAULT_FILES, '**/node_modules/**'],
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
          // The files that run two copies of every process (the soak, the rolling restart): about
          // 40 Postgres connections and both cores each, so they run alone, one after the other,
          // once the integration files are done (two side by side passed Postgres's 100 connections).
          name: 'two-copy',
          expect: pollBound,
          setupFiles,
          include: TWO_COPY_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...integrationBounds,
        },
      },
      {
        test: {
          // Each file runs a whole stack on private servers and kills parts of it: one at a time.
          name: 'faults',
          expect: pollBound,
          setupFiles,
          include: SLOW_FAULT_FILES,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
          ...integrationBounds,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          expect: pollBound,
          setupFiles,
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
