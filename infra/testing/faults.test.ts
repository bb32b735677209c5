import { describe, expect, it } from 'vitest';
import { sumTallies, tally } from './faults';

/**
 * The count every fault row reports (lost, duplicated, unexpected): the
 * manual controls of rows 4, 6, 8 and 9 (docs/reliability.md) showed it
 * coming out wrong with a mechanism broken by hand; here it must see each
 * way a copy can go wrong, or its zeros would mean nothing.
 */
describe('the tally of a fault test', () => {
  it('counts a lost item, a double with its extra copies and an unexpected one', () => {
    expect(tally(['s1', 's2', 's3', 's4'], ['s1', 's2', 's2', 's2', 's4', 'x'])).toEqual({ ok: 2, lost: 1, duplicated: 1, extraCopies: 2, unexpected: 1 });
  });

  it('reads an exact copy as clean, and adds tallies up per timeline', () => {
    const clean = tally(['a', 'b'], ['b', 'a']);
    expect(clean).toEqual({ ok: 2, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
    expect(sumTallies([clean, tally(['c'], ['c', 'c'])])).toEqual({ ok: 2, lost: 0, duplicated: 1, extraCopies: 1, unexpected: 0 });
  });
});
