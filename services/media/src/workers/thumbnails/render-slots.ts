/**
 * At most `size` renders at once, the others waiting their turn in arrival
 * order. The worker takes more jobs than it renders at once (config.ts,
 * THUMBNAIL_PREFETCH): a job beyond the slots reads its original from S3
 * while the others resize, and a job whose render is done writes its versions
 * and marks its photo while the next one renders, so the pixels never wait on
 * S3 or the database, and the CPU the worker takes stays bounded by the slots.
 */
export class RenderSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`render slots must be a positive integer, got ${size}`);
  }

  /** Runs `work` in a slot, once one is free; the slot is given back however the work ends. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy < this.size) this.busy++;
    // A freed slot passes straight to the first waiter (busy stays as it is), so none can jump the queue.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }

  /** Renders running and waiting (for tests and logs). */
  get load(): { running: number; waiting: number } {
    return { running: this.busy, waiting: this.waiting.length };
  }
}
