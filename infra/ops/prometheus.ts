import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { freePort, repoRoot, startProcess, type RunningProcess } from '@hoptrack/testing/processes';

/** The operators' Prometheus configuration, as compose runs it. */
export const PROMETHEUS_DIR = path.join(repoRoot, 'infra/prometheus');

interface ScrapeConfig {
  job_name: string;
  static_configs?: Array<{ targets: string[] }>;
  dns_sd_configs?: unknown[];
}
interface PrometheusConfig {
  global?: Record<string, string>;
  rule_files?: string[];
  scrape_configs: ScrapeConfig[];
}

/** Whether Debian's `prometheus` package is installed (infra/scripts/ensure-tools.sh installs it). */
export function prometheusInstalled(): boolean {
  try {
    execFileSync('prometheus', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * infra/prometheus/prometheus.yml with each job's targets moved to where the
 * local stack listens (`job name → host:port`), scraping every second. A job
 * of the file the stack does not run is an error: the file and the stack must
 * agree.
 */
export async function localConfig(targets: Record<string, string>, scrapeInterval = '1s'): Promise<PrometheusConfig> {
  const config = parse(await readFile(path.join(PROMETHEUS_DIR, 'prometheus.yml'), 'utf8')) as PrometheusConfig;
  config.global = { ...config.global, scrape_interval: scrapeInterval, evaluation_interval: scrapeInterval };
  config.scrape_configs = config.scrape_configs.map((job) => {
    const target = targets[job.job_name];
    if (!target) throw new Error(`prometheus.yml scrapes '${job.job_name}', which the local stack does not run`);
    return { job_name: job.job_name, static_configs: [{ targets: [target] }] };
  });
  return config;
}

export interface RunningPrometheus {
  url: string;
  process: RunningProcess;
  /** An instant query; the result vector. */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  /** Every metric name Prometheus holds. */
  metricNames(): Promise<string[]>;
  targets(): Promise<Array<{ job: string; health: string; lastError: string }>>;
  stop(): Promise<void>;
}

export async function startPrometheus(targets: Record<string, string>): Promise<RunningPrometheus> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hoptrack-prometheus-'));
  const config = await localConfig(targets);
  for (const rules of config.rule_files ?? []) await copyFile(path.join(PROMETHEUS_DIR, rules), path.join(dir, rules));
  await writeFile(path.join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const proc = await startProcess({
    name: 'prometheus',
    command: [
      'prometheus',
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    port,
    env: {},
    readyPath: '/-/ready',
  });
  const api = async <T>(pathAndQuery: string): Promise<T> => {
    const res = await fetch(`${proc.url}${pathAndQuery}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${pathAndQuery}: ${body.error ?? res.status}`);
    return body.data;
  };
  return {
    url: proc.url,
    process: proc,
    query: async (expr) => (await api<{ result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result,
    metricNames: () => api<string[]>('/api/v1/label/__name__/values'),
    targets: async () =>
      (await api<{ activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }> }>('/api/v1/targets')).activeTargets.map((t) => ({
        job: t.labels.job,
        health: t.health,
        lastError: t.lastError,
      })),
    stop: () => proc.stop(),
  };
}
