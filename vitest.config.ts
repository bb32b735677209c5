import { defineConfig } from 'vitest/config';

/**
 * Three tiers (see docs/testing.md): unit and integration tests of the
 * services and the gateway run against the real Postgres, Redis and NATS;
 * e2e drives the built web app in Debian's chromium through the gateway.
 * Files run one at a time: they share those servers and the machine has 2 cores.
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
          include: ['proto/**/*.test.ts', 'services/**/test/**/*.test.ts', 'gateway/test/**/*.test.ts', 'infra/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
