/**
 * How long the tests wait before they give up: bounds that end a stuck test,
 * never windows a passing test depends on (every wait returns at the first
 * success). Generous because the suite runs on a 2-core box busy with other
 * work — `make dev`, an editor, a build — where consumers lag and processes
 * start by seconds. One home, so no test picks a quiet-machine figure of its own.
 */

/** A condition (`eventually`, `expect.poll`, a consumer settling, a read model learning of an event). */
export const CONDITION_BOUND_MS = 30_000;
/** A process answering its readiness path; ten processes starting at once on a loaded box took over 60 s. */
export const READY_BOUND_MS = 120_000;
/**
 * SIGTERM to SIGKILL: longer than a service's own shutdown deadline
 * (SHUTDOWN_TIMEOUT_MS, 10 s), so a slow but graceful exit is never cut off
 * and miscounted as a crash.
 */
export const KILL_AFTER_MS = 15_000;
/** One integration test, and one hook (a stack boot, a hundred argon2 logins). */
export const INTEGRATION_TEST_BOUND_MS = 120_000;
/** One browser test. */
export const BROWSER_TEST_BOUND_MS = 180_000;
export const HOOK_BOUND_MS = 300_000;
