import type { Logger } from 'pino';

/**
 * Runs a pass (publish the outbox, send the mail queue) now when poked after
 * a commit, and every `pollMs` for what a crash or another process left
 * behind. One pass at a time: a poke during a pass runs one more right after
 * it, so nothing poked waits for the next poll.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    /** `poked`: asked for after a commit (work is known to wait), not the timer's look for leftovers. */
    private readonly pass: (run: { poked: boolean }) => Promise<unknown>,
    private readonly options: { pollMs: number; logger: Logger; failure: string },
  ) {}

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
      .then(() => undefined)
      .catch((err: unknown) => this.options.logger.error({ err }, this.options.failure))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.poke();
        } else {
          this.timer = setTimeout(() => this.run(false), this.options.pollMs);
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
