import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';
import { loadAlerts, loadDashboards, metricNamesOf } from './promql';

/**
 * The Grafana files themselves (no Grafana needed): dashboards parse, every
 * panel queries Prometheus, and the provisioning points where compose mounts
 * them. metrics.test.ts then checks each queried name against a real scrape.
 */
describe('Grafana dashboards and provisioning', () => {
  const dashboards = loadDashboards();

  it('has the four dashboards the operators need, each with a unique uid', () => {
    expect(dashboards.map((d) => d.file).sort()).toEqual(['feed.json', 'nats.json', 'overview.json', 'queues.json']);
    expect(new Set(dashboards.map((d) => d.dashboard.uid)).size).toBe(dashboards.length);
  });

  it.each(loadDashboards().map((d) => [d.file, d.dashboard] as const))('%s: every panel queries the Prometheus data source', (_file, dashboard) => {
    expect(dashboard.title).toMatch(/^Hoptrack/);
    expect(dashboard.panels.length).toBeGreaterThan(0);
    for (const panel of dashboard.panels) {
      expect(panel.datasource?.uid, panel.title).toBe('prometheus');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.expr, panel.title).toBeTruthy();
        expect(metricNamesOf(target.expr ?? '').length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
      }
    }
  });

  it('provisions the data source with the uid the panels use, and loads the dashboards folder', () => {
    const datasources = parse(readFileSync(path.join(repoRoot, 'infra/grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as { datasources: Array<{ uid: string; type: string }> };
    expect(datasources.datasources).toEqual([expect.objectContaining({ uid: 'prometheus', type: 'prometheus' })]);
    const providers = parse(readFileSync(path.join(repoRoot, 'infra/grafana/provisioning/dashboards/hoptrack.yml'), 'utf8')) as { providers: Array<{ options: { path: string } }> };
    expect(providers.providers[0]?.options.path).toBe('/var/lib/grafana/dashboards');
  });

  it('names every alert and gives each an expression over our metrics', () => {
    const alerts = loadAlerts();
    expect(alerts.length).toBeGreaterThan(5);
    for (const { alert, expr } of alerts) expect(metricNamesOf(expr).length, alert).toBeGreaterThan(0);
  });
});

describe('metricNamesOf', () => {
  it.each([
    ['histogram_quantile(0.95, sum by (job, le) (rate(http_request_duration_seconds_bucket{route!~"a|b"}[5m])))', ['http_request_duration_seconds_bucket']],
    ['sum by (job) (rate(x_total{s=~"5.."}[5m])) / sum by (job) (rate(x_total[5m]))', ['x_total']],
    ['max by (queue) (bullmq_jobs{state="failed"}) > 0 and max by (queue) (delta(bullmq_jobs[15m])) > 0', ['bullmq_jobs']],
    ['up == 0', ['up']],
    ['count by (job) (up{job=~"w"} == 1)', ['up']],
  ])('%s reads %j', (expr, names) => {
    expect(metricNamesOf(expr).sort()).toEqual([...names].sort());
  });
});
