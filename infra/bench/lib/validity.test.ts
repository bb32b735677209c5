import { describe, expect, it } from 'vitest';
import { watchConditions } from './conditions';
import { checkReference, referenceHistory, REFERENCE_TOLERANCE } from './validity';

/** A stored run with one reference figure, as bench/results/*.json holds them. */
const run = (startedAt: string, cpu: string, referenceValue: number, smoke = false) => ({
  smoke,
  startedAt,
  machine: { cpu, cores: 2 },
  sections: [{ id: 'feed-read', comparisons: [{ measure: 'feed rps', reference: 'redis range', referenceValue, value: 1, unit: 'rps', ratio: 1 }] }],
});
const key = 'feed-read\u0000feed rps\u0000redis range';
const xeon = { cpu: 'Intel Xeon', cores: 2 };

describe('a run is judged by its machine kind’s earlier references', () => {
  const runs = [
    run('2026-11-01T00:00:00Z', 'Intel Xeon', 1000),
    run('2026-11-02T00:00:00Z', 'Intel Xeon', 1100),
    run('2026-11-03T00:00:00Z', 'Intel Xeon', 900),
    // Another kind, a smoke and a later run are no part of this run's history.
    run('2026-11-02T12:00:00Z', 'AMD EPYC', 300),
    run('2026-11-02T13:00:00Z', 'Intel Xeon', 50, true),
    run('2026-12-09T00:00:00Z', 'Intel Xeon', 5000),
  ];
  const history = referenceHistory(runs, xeon, '2026-12-01T00:00:00Z');

  it('takes only earlier full runs of the same kind, oldest first', () => {
    expect(history.get(key)).toEqual([1000, 1100, 900]);
  });

  it('a reference within ±15 % of the median is valid, one beyond is not', () => {
    expect(checkReference(1000 * (1 + REFERENCE_TOLERANCE - 0.01), history.get(key))).toMatchObject({ median: 1000, runs: 3, valid: true });
    expect(checkReference(1000 * (1 - REFERENCE_TOLERANCE - 0.01), history.get(key))).toMatchObject({ median: 1000, valid: false });
    expect(checkReference(1300, history.get(key)).offBy).toBeCloseTo(0.3);
  });

  it('the first run on a kind has no median and is not called valid', () => {
    expect(checkReference(1000, undefined)).toEqual({ median: null, runs: 0, offBy: null, valid: null });
  });
});

describe('the conditions of a step', () => {
  it('see the load generator’s own CPU and a blocked event loop', async () => {
    const done = watchConditions();
    // Let the delay monitor take samples, then hold the loop for 300 ms of this process's CPU.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const start = process.cpuUsage();
    for (;;) {
      const used = process.cpuUsage(start);
      if (used.user + used.system >= 300_000) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const conditions = done();
    expect(conditions.generatorLagP99Ms).toBeGreaterThanOrEqual(250);
    expect(conditions.generatorCores).toBeGreaterThan(0);
    expect(conditions.machineCores).toBeGreaterThan(0);
  });
});
