/**
 * What a consumer has received and not yet taken, so it can take at once
 * everything that is there (a batch) without waiting for more. nats.js's
 * `consume()` pushes each message to a callback as it arrives (its pulls keep
 * up to `max_messages` requested); the consumer's loop takes from here.
 */
export class ReadyQueue<T> {
  private items: T[] = [];
  private closed = false;
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.signal();
  }

  /** No more items will come; `take` answers what is left, then an empty list. */
  close(): void {
    this.closed = true;
    this.signal();
  }

  /**
   * Up to `max` items, oldest first, as soon as there is at least one: never
   * waits for a full batch. An empty list once closed and drained.
   */
  async take(max: number): Promise<T[]> {
    while (this.items.length === 0 && !this.closed) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    return this.items.splice(0, max);
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
