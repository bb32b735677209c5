/**
 * Two-sided Mann–Whitney U test: the z score of "a and b come from one
 * distribution" (normal approximation, ties ranked by their average). For
 * timing comparisons that must hold on a busy machine: it compares ranks, so
 * a few slow outliers (a GC pause, another process) move it little, and
 * samples taken alternately share whatever the machine was doing.
 * |z| < 3.29 is no difference at the 0.1 % level.
 */
export function mannWhitneyZ(a: readonly number[], b: readonly number[]): number {
  const all = [...a.map((v) => ({ v, first: true })), ...b.map((v) => ({ v, first: false }))].sort((x, y) => x.v - y.v);
  let rankSumA = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]?.v === all[i]?.v) j += 1;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k += 1) if (all[k]?.first) rankSumA += rank;
    i = j + 1;
  }
  const [n1, n2] = [a.length, b.length];
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  return (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
}

export const NO_DIFFERENCE_Z = 3.29;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
