export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

/** A clock tests move by hand, for expiry rules (never a real sleep). */
export function testClock(start = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
  };
}
