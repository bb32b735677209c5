import type { Logger } from 'pino';
import { withTimeout } from '../timeout';

/** A dependency /readyz checks: resolves when it answers, throws when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

/** 'ok', or why the dependency is not ready. */
export type DependencyState = string;

/**
 * The dependencies' state as /readyz reports it, without making whoever asks
 * wait for them. Each check runs at most once per `freshMs`, however many ask
 * (two or more gateways every 500 ms, the orchestrator's probe), and /readyz
 * answers from the last finished check while the next one runs.
 *
 * Why: a dependency that is slow but working (an S3 HEAD taking a second)
 * made /readyz slower than the gateways' readiness timeout, and every
 * instance of the service left every gateway's rotation at once, an outage
 * of a working service; and every poll cost the dependency a request.
 * A dependency that stops answering is still reported within
 * `freshMs` + `timeoutMs`. Only the first question waits for the checks.
 */
export class Readiness {
  private readonly states = new Map<string, { state: DependencyState; at: number }>();
  private readonly running = new Map<string, Promise<DependencyState>>();

  constructor(
    private readonly checks: Record<string, ReadinessCheck>,
    private readonly options: { timeoutMs: number; freshMs: number; logger: Logger },
  ) {}

  /** More dependencies to check (a service definition's connections, known only once it connected). */
  add(checks: Record<string, ReadinessCheck>): void {
    Object.assign(this.checks, checks);
  }

  async report(): Promise<Array<[string, DependencyState]>> {
    return Promise.all(
      Object.keys(this.checks).map(async (name): Promise<[string, DependencyState]> => {
        const last = this.states.get(name);
        if (!last) return [name, await this.run(name)];
        if (Date.now() - last.at >= this.options.freshMs) void this.run(name);
        return [name, last.state];
      }),
    );
  }

  /** One check of `name`, shared by everyone asking meanwhile. */
  private run(name: string): Promise<DependencyState> {
    const inFlight = this.running.get(name);
    if (inFlight) return inFlight;
    const check = this.checks[name] as ReadinessCheck;
    const run = withTimeout(check(), this.options.timeoutMs, name)
      .then(
        () => 'ok',
        (err: unknown) => {
          this.options.logger.warn({ dependency: name, err }, 'dependency not ready');
          return err instanceof Error ? err.message : 'failed';
        },
      )
      .then((state) => {
        this.states.set(name, { state, at: Date.now() });
        this.running.delete(name);
        return state;
      });
    this.running.set(name, run);
    return run;
  }
}
