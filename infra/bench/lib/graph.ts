/**
 * The bench's seeded randomness and a community-shaped friendship graph.
 *
 * A real community's friend counts are roughly log-normal: most people have
 * around a hundred friends, a long tail has thousands. The graph is a
 * Chung–Lu graph: each person gets a target degree drawn from a log-normal,
 * and a pair (u, v) is friends with probability min(1, w_u·w_v / Σw), so a
 * person's expected degree is their target. Pairs are drawn with Miller and
 * Hagberg's skipping ("Efficient generation of networks with given expected
 * degrees", 2011): with targets sorted, the run of pairs to skip is drawn
 * geometrically, so generation is O(people + pairs) in time and the memory
 * is the pairs themselves (two Int32Arrays), never a people × people table.
 */

/** mulberry32: a small seeded generator, so every seeded choice is the same on every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-normal draws (Box–Muller on the seeded generator): `median · e^(sigma·z)`. */
export function logNormals(count: number, median: number, sigma: number, rnd: () => number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    // 1 - rnd() is in (0, 1]: the logarithm stays finite.
    const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
    out[i] = median * Math.exp(sigma * z);
  }
  return out;
}

/** Friend pairs of people 1..people, each pair once with lo < hi. */
export interface FriendGraph {
  people: number;
  lo: Int32Array;
  hi: Int32Array;
}

export interface CommunityShape {
  /** The median number of friends. */
  medianFriends: number;
  /** The log-normal's sigma: 1 gives a p99 about ten times the median and a mean about 1.65 times it. */
  sigma: number;
  /** No target above this (Facebook's 5,000); the graph's own cap is people - 1. */
  maxFriends: number;
  seed: number;
}

/** Arrays that double as pairs arrive: the pair count is only known at the end. */
class PairList {
  lo: Int32Array;
  hi: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.lo = new Int32Array(Math.max(16, capacity));
    this.hi = new Int32Array(Math.max(16, capacity));
  }
  push(a: number, b: number): void {
    if (this.length === this.lo.length) {
      const lo = new Int32Array(this.lo.length * 2);
      const hi = new Int32Array(this.hi.length * 2);
      lo.set(this.lo);
      hi.set(this.hi);
      this.lo = lo;
      this.hi = hi;
    }
    this.lo[this.length] = a;
    this.hi[this.length] = b;
    this.length++;
  }
}

/**
 * The community graph. Targets are sorted high to low and person k gets the
 * k-th: person 1 is the best-connected (the bench's celebrity), as in the
 * smaller scales where person 1 has the most friends.
 */
export function communityGraph(people: number, shape: CommunityShape): FriendGraph {
  const rnd = random(shape.seed);
  const cap = Math.min(shape.maxFriends, people - 1);
  const w = logNormals(people, shape.medianFriends, shape.sigma, rnd).map((x) => Math.min(cap, Math.max(1, x)));
  w.sort().reverse();
  let total = 0;
  for (const x of w) total += x;
  const pairs = new PairList(Math.ceil(total / 2));
  for (let u = 0; u < people - 1; u++) {
    let v = u + 1;
    let p = Math.min(1, (w[u]! * w[v]!) / total);
    while (v < people && p > 0) {
      // Skip the pairs that would not be drawn at probability p (a geometric run), then
      // accept the next with q/p: its true probability q is at most p, targets falling.
      if (p < 1) v += Math.floor(Math.log(1 - rnd()) / Math.log(1 - p));
      if (v >= people) break;
      const q = Math.min(1, (w[u]! * w[v]!) / total);
      if (rnd() < q / p) pairs.push(u + 1, v + 1);
      p = q;
      v++;
    }
  }
  return { people, lo: pairs.lo.subarray(0, pairs.length), hi: pairs.hi.subarray(0, pairs.length) };
}

/** Each person's number of friends (index = person, 0 unused). */
export function degrees(graph: FriendGraph): Int32Array {
  const out = new Int32Array(graph.people + 1);
  for (let k = 0; k < graph.lo.length; k++) {
    out[graph.lo[k]!]!++;
    out[graph.hi[k]!]!++;
  }
  return out;
}

/**
 * Friends of each person in the pairs' order (a compressed adjacency list:
 * `friends.subarray(start[i], start[i + 1])`), for lookups that a Set per
 * person would make cost gigabytes at 100,000 people.
 */
export function adjacency(graph: FriendGraph): { start: Int32Array; friends: Int32Array } {
  const degree = degrees(graph);
  const start = new Int32Array(graph.people + 2);
  for (let i = 1; i <= graph.people; i++) start[i + 1] = start[i]! + degree[i]!;
  const fill = start.slice();
  const friends = new Int32Array(graph.lo.length * 2);
  for (let k = 0; k < graph.lo.length; k++) {
    const a = graph.lo[k]!;
    const b = graph.hi[k]!;
    friends[fill[a]!++] = b;
    friends[fill[b]!++] = a;
  }
  return { start, friends };
}

/**
 * Splits `total` over people in proportion to their weights, exactly (largest
 * remainder): the counts add up to `total`, whatever the rounding.
 */
export function apportion(total: number, weights: Float64Array): Int32Array {
  let sum = 0;
  for (const x of weights) sum += x;
  const counts = new Int32Array(weights.length);
  const remainders: Array<[number, number]> = [];
  let given = 0;
  for (let i = 0; i < weights.length; i++) {
    const share = (total * weights[i]!) / sum;
    counts[i] = Math.floor(share);
    given += counts[i]!;
    remainders.push([share - counts[i]!, i]);
  }
  remainders.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  for (let k = 0; k < total - given; k++) counts[remainders[k]![1]]!++;
  return counts;
}
