/**
 * Fixed-window request counts per client, decided in this process and
 * shared through Redis in batches (issue 41: a Redis round trip per request
 * was a fixed cost of every page).
 *
 * Each client's window holds what Redis last said (`shared`: every
 * gateway's hits that reached it) and this gateway's hits since then
 * (`pending`). A request is judged on `shared + pending` at once; every
 * `syncMs` the pending hits of every client go to Redis in one pipeline,
 * and each answer brings the new shared count and the window's end. So
 * one gateway counts its own requests exactly, and several gateways
 * together can pass the limit by at most what the others let through in
 * one sync interval (docs/decisions.md). Redis stays the one truth: a
 * window this process forgot (evicted, restarted) is set right by the
 * next answer.
 *
 * When Redis fails, the pending hits are kept and each gateway goes on
 * limiting on its own counts, without waiting for Redis on any request.
 * No timer runs while nobody is counted: an idle gateway does not wake up.
 */
export interface WindowCount {
  count: number;
  resetsInMs: number;
}

/** One batch of hits for Redis, and the answer for each key: [count in the window, ms until it resets]. */
export type SyncHits = (hits: ReadonlyArray<{ key: string; hits: number }>) => Promise<Array<[number, number]>>;

export interface SharedWindowsOptions {
  windowMs: number;
  syncMs: number;
  /** The most clients held at once; past it the oldest are forgotten (Redis still has their counts). */
  maxClients: number;
  sync: SyncHits;
  onSyncError: (err: unknown) => void;
}

interface Window {
  shared: number;
  pending: number;
  resetsAt: number;
}

export class SharedWindows {
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(private readonly options: SharedWindowsOptions) {}

  hit(key: string, now = Date.now()): WindowCount {
    let window = this.windows.get(key);
    if (!window || now >= window.resetsAt) {
      window = { shared: 0, pending: 0, resetsAt: now + this.options.windowMs };
      this.windows.delete(key);
      this.windows.set(key, window);
      this.evictPastLimit();
    }
    window.pending += 1;
    this.scheduleSync();
    return { count: window.shared + window.pending, resetsInMs: window.resetsAt - now };
  }

  /** Clients held now (for tests and the bound). */
  get size(): number {
    return this.windows.size;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sends every pending hit now (also what the timer does). */
  async flush(now = Date.now()): Promise<void> {
    if (this.syncing) return;
    const batch: Array<{ key: string; hits: number; window: Window }> = [];
    for (const [key, window] of this.windows) {
      if (window.pending > 0) batch.push({ key, hits: window.pending, window });
      else if (now >= window.resetsAt) this.windows.delete(key);
    }
    if (batch.length === 0) return;
    this.syncing = true;
    try {
      const answers = await this.options.sync(batch.map(({ key, hits }) => ({ key, hits })));
      const answeredAt = Date.now();
      batch.forEach(({ window, hits }, i) => {
        const [count, ttlMs] = answers[i] ?? [Number.NaN, Number.NaN];
        // Hits counted while the batch was on its way stay pending for the next one.
        window.pending -= hits;
        if (Number.isFinite(count)) window.shared = count;
        if (Number.isFinite(ttlMs) && ttlMs > 0) window.resetsAt = answeredAt + ttlMs;
      });
    } catch (err) {
      this.options.onSyncError(err);
    } finally {
      this.syncing = false;
      // Hits that came during the batch (or a batch Redis refused) go with the next one.
      if ([...this.windows.values()].some((window) => window.pending > 0)) this.scheduleSync();
    }
  }

  private scheduleSync(): void {
    if (this.timer || this.syncing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.syncMs);
    this.timer.unref();
  }

  private evictPastLimit(): void {
    while (this.windows.size > this.options.maxClients) {
      const oldest = this.windows.keys().next();
      if (oldest.done) return;
      this.windows.delete(oldest.value);
    }
  }
}
