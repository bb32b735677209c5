import type { Logger } from 'pino';

/**
 * Runs a pass (publish the outbox, send the mail queue) now when poked after
 * a commit, and every `pollMs` for what a crash or another process left
 * behind. One pass at a time: a poke during a pass runs one more right after
 * it, so nothing poked waits for the next poll.
 *
 * With `idleMaxMs`, a timer's pass that found nothing (resolved 0) makes the
 * next wait twice as long, up to `idleMaxMs`; a poke, a pass that found work
 * and a failed pass bring it back to `pollMs`. An idle stack's relays looked
 * every second in every process (issue 41: an idle stack is not idle), while
 * a failure (the bus away) still retries every `pollMs`.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** The wait before the next timer pass (nextPollDelay). */
  private delayMs: number;

  constructor(
    /** `poked`: asked for after a commit (work is known to wait), not the timer's look for leftovers. */
    private readonly pass: (run: { poked: boolean }) => Promise<unknown>,
    private readonly options: { pollMs: number; idleMaxMs?: number; logger: Logger; failure: string },
  ) {
    this.delayMs = options.pollMs;
  }

  start(): void {
    this.stopped = false;
    this.poke();
  }

  poke(): void {
    this.run(true);
  }

  private run(poked: boolean): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass({ poked })
      .then(
        (result) => {
          this.delayMs = nextPollDelay(this.delayMs, { poked, found: result !== 0 }, this.options);
        },
        (err: unknown) => {
          this.delayMs = this.options.pollMs;
          this.options.logger.error({ err }, this.options.failure);
        },
      )
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.poke();
        } else {
          this.timer = setTimeout(() => this.run(false), this.delayMs);
          this.timer.unref();
        }
      });
  }

  /** Resolves when the pass under way (if any) has ended. */
  async idle(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/** The wait before the next timer pass, after a pass that was `poked` or not and `found` work or not (Poller). */
export function nextPollDelay(current: number, pass: { poked: boolean; found: boolean }, options: { pollMs: number; idleMaxMs?: number }): number {
  const max = options.idleMaxMs ?? options.pollMs;
  if (pass.poked || pass.found || max <= options.pollMs) return options.pollMs;
  return Math.min(max, current * 2);
}
