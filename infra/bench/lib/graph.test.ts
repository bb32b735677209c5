import { describe, expect, it } from 'vitest';
import { adjacency, apportion, communityGraph, degrees, logNormals, random, type CommunityShape } from './graph';

/** COMMUNITY_SCALE's shape (seed.ts) on fewer people: the degree does not depend on the count. */
const SHAPE: CommunityShape = { medianFriends: 100, sigma: 1, maxFriends: 5_000, seed: 42 };
const PEOPLE = 20_000;

/** Byte equality (toEqual walks 1.6 million elements for half a minute). */
const same = (a: Int32Array, b: Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const sorted = (values: Int32Array) => Int32Array.from(values.subarray(1)).sort();
const quantile = (values: Int32Array, q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describe('the community graph', () => {
  const graph = communityGraph(PEOPLE, SHAPE);
  const byDegree = sorted(degrees(graph));

  it('has the median number of friends it was asked for, within 10 %', () => {
    expect(quantile(byDegree, 0.5)).toBeGreaterThanOrEqual(90);
    expect(quantile(byDegree, 0.5)).toBeLessThanOrEqual(110);
  });

  it('has a long tail: p99 many times the median, the best-connected over a thousand friends', () => {
    expect(quantile(byDegree, 0.99)).toBeGreaterThan(5 * quantile(byDegree, 0.5));
    expect(byDegree[byDegree.length - 1]).toBeGreaterThan(1_000);
  });

  it('lists each pair once, low number first, and no one as their own friend', () => {
    // Plain checks in the loop (an expect per pair is minutes for 1.6 million pairs), one expect on what they found.
    const keys = new Set<number>();
    let misordered = 0;
    for (let k = 0; k < graph.lo.length; k++) {
      const [a, b] = [graph.lo[k]!, graph.hi[k]!];
      if (!(a >= 1 && a < b && b <= PEOPLE)) misordered++;
      keys.add(a * (PEOPLE + 1) + b);
    }
    expect(misordered).toBe(0);
    expect(keys.size).toBe(graph.lo.length);
  });

  it('is the same graph on every run', () => {
    const again = communityGraph(PEOPLE, SHAPE);
    expect(same(again.lo, graph.lo) && same(again.hi, graph.hi)).toBe(true);
    expect(same(communityGraph(PEOPLE, { ...SHAPE, seed: 43 }).lo, graph.lo)).toBe(false);
  });

  it('makes person 1 the best-connected (the bench’s celebrity)', () => {
    const degree = degrees(graph);
    expect(degree[1]).toBe(byDegree[byDegree.length - 1]);
  });

  it('lists each person’s friends both ways in the adjacency', () => {
    const { start, friends } = adjacency(graph);
    const degree = degrees(graph);
    for (const i of [1, 2, 500, PEOPLE]) expect(start[i + 1]! - start[i]!).toBe(degree[i]);
    const [a, b] = [graph.lo[0]!, graph.hi[0]!];
    expect(friends.subarray(start[a], start[a + 1])).toContain(b);
    expect(friends.subarray(start[b], start[b + 1])).toContain(a);
  });
});

describe('apportion', () => {
  it('splits a total exactly, in proportion to the weights', () => {
    const weights = logNormals(1_000, 1, 1.2, random(11));
    const counts = apportion(24_000, weights);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(24_000);
    const heaviest = weights.indexOf(Math.max(...weights));
    expect(counts[heaviest]).toBe(Math.max(...counts));
  });
});
