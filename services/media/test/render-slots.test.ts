import { describe, expect, it } from 'vitest';
import { RenderSlots } from '../src/workers/thumbnails/render-slots';

const tick = () => new Promise((r) => setImmediate(r));

/** A piece of work the test finishes by hand. */
function gate() {
  let open: () => void = () => {};
  let fail: (err: Error) => void = () => {};
  const done = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { done, open, fail };
}

describe('RenderSlots', () => {
  it('runs at most `size` at once and the rest in arrival order, each once', async () => {
    const slots = new RenderSlots(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const all = gates.map((g, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await g.done;
        running--;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.load).toEqual({ running: 2, waiting: 3 });
    // The second finishes first: its slot goes to the next in line, not to a newcomer.
    gates[1]!.open();
    const late = slots.run(async () => (started.push(99), 99));
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all([...all, late])).toEqual([0, 1, 2, 3, 4, 99]);
    expect(started).toEqual([0, 1, 2, 3, 4, 99]);
    expect(most).toBe(2);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the slot back when the work fails', async () => {
    const slots = new RenderSlots(1);
    const first = gate();
    const failing = slots.run(() => first.done);
    const next = slots.run(async () => 'next');
    first.fail(new Error('corrupt pixels'));
    await expect(failing).rejects.toThrow('corrupt pixels');
    expect(await next).toBe('next');
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new RenderSlots(0)).toThrow();
    expect(() => new RenderSlots(1.5)).toThrow();
  });
});
