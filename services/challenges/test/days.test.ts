import { timeZone } from '@hoptrack/proto';
import { describe, expect, it } from 'vitest';
import { DATE_PARTS_MAX, dateIn, formattersKept } from '../src/domain/days';

/**
 * Issue 39: `eUrOpE/bErLiN` was taken as given and each spelling of one zone
 * kept a formatter of its own, for ever (300 spellings: 7–13 MB). The schema
 * now answers the canonical name, and the cache has a bound.
 */
/** The i-th spelling of a zone: bit n of i upper-cases its n-th letter. */
function spelling(zone: string, i: number): string {
  let letter = 0;
  return [...zone].map((c) => (/[a-z]/.test(c) ? ((i >> letter++) & 1 ? c.toUpperCase() : c) : c)).join('');
}

describe('time zones', () => {
  it('are taken in any letter case and answered by their canonical name', () => {
    expect(timeZone.parse('eUrOpE/bErLiN')).toBe('Europe/Berlin');
    expect(timeZone.parse('utc')).toBe('UTC');
    expect(timeZone.safeParse('Mars/Olympus_Mons').success).toBe(false);
  });

  it('keep one formatter per canonical zone, however it was spelled, and never more than the bound', () => {
    const before = formattersKept();
    const spellings = Array.from({ length: 300 }, (_, i) => spelling('europe/berlin', i));
    const at = new Date('2026-11-27T23:30:00Z');
    for (const spelling of spellings) expect(dateIn(at, timeZone.parse(spelling))).toBe('2026-11-28');
    expect(formattersKept() - before).toBeLessThanOrEqual(1);
    // Raw strings past the schema (a caller that forgot it) still cannot grow it without bound.
    const raw = Array.from({ length: DATE_PARTS_MAX + 100 }, (_, i) => spelling('america/argentina/buenos_aires', i));
    expect(new Set(raw).size).toBe(DATE_PARTS_MAX + 100);
    for (const zone of raw) dateIn(at, zone);
    expect(formattersKept()).toBe(DATE_PARTS_MAX);
  });
});
