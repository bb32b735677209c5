import { randomUUID } from 'node:crypto';
import { Poller, type Logger } from '@hoptrack/runtime';
import type { Accounts } from './accounts';

/**
 * Erases the unclaimed accounts past their 7 days (Accounts.eraseUnclaimedExpired)
 * once an hour, in every replica (two deleting the same account: the second
 * finds none). Started with the service's consumers, as the mail relay is.
 */
export class UnclaimedSweep {
  private readonly poller: Poller;

  constructor(private readonly accounts: Accounts, logger: Logger, pollMs = 3600_000) {
    this.poller = new Poller(() => this.runOnce(), { pollMs, logger, failure: 'unclaimed-account sweep failed; next pass in an hour' });
  }

  start(): { stop(): Promise<void> } {
    this.poller.start();
    return { stop: () => this.poller.stop() };
  }

  /** One pass now (tests drive it after moving the clock); how many accounts went. */
  runOnce(): Promise<number> {
    return this.accounts.eraseUnclaimedExpired(`unclaimed-sweep-${randomUUID()}`);
  }
}
