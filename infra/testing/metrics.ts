/**
 * A process's /metrics, read from outside as Prometheus would, for tests that
 * watch a running stack (the soak, the rolling restart).
 */
export interface Series {
  name: string;
  /** The label set as written, `{queue="x",state="waiting"}`, or '' for none. */
  labels: string;
  value: number;
}

/** The process's /metrics text, or null when it does not answer (stopped, restarting, hung). */
async function metricsText(url: string): Promise<string | null> {
  return fetch(`${url}/metrics`, { signal: AbortSignal.timeout(3000) })
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);
}

function parseSeries(text: string): Series[] {
  return text
    .split('\n')
    .map((line) => /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([0-9.eE+-]+|NaN)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, name, labels, value]) => ({ name: name as string, labels: labels ?? '', value: Number(value) }));
}

/** Every series the process exposes now; none when it does not answer (stopped, restarting). */
export async function scrapeMetrics(url: string): Promise<Series[]> {
  return parseSeries((await metricsText(url)) ?? '');
}

/** The largest value of each metric name (the lag of the most behind consumer, a process's RSS). */
export function largestByName(series: Series[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const s of series) values[s.name] = Math.max(values[s.name] ?? 0, s.value);
  return values;
}

/**
 * Work still waiting anywhere in these processes, one line per non-zero series:
 * outbox rows not yet published, events a consumer has not received or not
 * acknowledged, jobs waiting, running or delayed (a job scheduler's next run is
 * `scheduled`, not delayed: the runtime's registerQueueMetrics).
 * Empty means every backlog drained.
 */
export async function pendingWork(processes: Array<{ name: string; url: string }>): Promise<string[]> {
  const waiting: string[] = [];
  for (const proc of processes) {
    const text = await metricsText(proc.url);
    // A process that does not answer has not drained anything: a dead worker's metrics read as
    // nothing pending, which is the one answer a drain check must never take from it.
    if (text === null) {
      waiting.push(`${proc.name} does not answer /metrics`);
      continue;
    }
    for (const s of parseSeries(text)) {
      const pending =
        s.name === 'outbox_pending_events' ||
        s.name === 'bus_consumer_pending_events' ||
        s.name === 'bus_consumer_ack_pending_events' ||
        (s.name === 'bullmq_jobs' && /state="(waiting|active|delayed)"/.test(s.labels));
      if (pending && s.value > 0) waiting.push(`${proc.name} ${s.name}${s.labels} ${s.value}`);
    }
  }
  return waiting;
}
