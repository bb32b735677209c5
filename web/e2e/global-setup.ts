import type { TestProject } from 'vitest/node';
import { storesOf, type StackStores } from '@hoptrack/testing/erasure-search';
import { registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack } from '@hoptrack/testing/stack';
import { makeStaff } from '@hoptrack/testing/staff';

/**
 * One stack (every service, and the gateway serving the built web app) for
 * the whole e2e project: started once before the first browser file, stopped
 * after the last. Starting it took 13-16 s per file; the files need nothing of
 * their own from it (unique users, no clock, no special configuration), so
 * they share it as they already shared its databases. Each file still
 * launches its own browser (web/e2e/support.ts).
 */
declare module 'vitest' {
  interface ProvidedContext {
    /** The shared stack's gateway origin: the built web app and /api. */
    e2eBaseUrl: string;
    /** The shared stack's SMTP catcher (infra/testing/mail.ts): the mails the services sent, readable over HTTP. */
    e2eMailUrl: string;
    /** Where the shared stack keeps its data (databases, Redis, streams, S3): the erasure search of a deleted account. */
    e2eStores: StackStores;
    /** A moderator of the shared stack (issue 42), made by the operators' command: the browser files act as one through the API. */
    e2eModerator: RegisteredUser;
  }
}

/**
 * The one limit the shared stack would trip, raised for it alone: the
 * gateway's requests per client address and minute (600 in production, a
 * person's worth). Every browser file comes from 127.0.0.1 through this one
 * gateway, where one stack per file gave each file a fresh counter (its own
 * Redis key prefix) after 13-16 s of starting up with no calls at all. Now the
 * files follow each other without that pause and share one counter: full
 * runs on a 2-core machine busy with other work peaked at 281 calls in one
 * window under a load average of about 30, and at 382 under about 10; the
 * less busy the machine, the faster the same calls come, past 600. No browser test exercises that limit (gateway/test does, on a
 * gateway of its own). Auth's own limits stay as they are: login counts per
 * address and e-mail (every test user is new), and a run makes 5 of the 10
 * reset requests allowed per address in 15 minutes.
 */
const SHARED_STACK_ENV = { GATEWAY_RATE_LIMIT_MAX: '6000' };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await startStack({ env: SHARED_STACK_ENV });
  project.provide('e2eBaseUrl', stack.baseUrl);
  project.provide('e2eMailUrl', stack.mailUrl ?? '');
  project.provide('e2eStores', storesOf(stack));
  try {
    project.provide('e2eModerator', await makeStaff(stack, await registerUser(stack.baseUrl, 'e2emoderator'), 'moderator'));
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return () => stack.stop();
}
