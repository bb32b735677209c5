import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '@hoptrack/testing/processes';

/** Words of PromQL that are not metric names: functions, aggregations, keywords. */
const PROMQL_WORDS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'group', 'count_values',
  'rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'histogram_quantile', 'abs', 'ceil', 'floor', 'round',
  'clamp_min', 'clamp_max', 'absent', 'time', 'vector', 'scalar', 'label_replace', 'sort', 'sort_desc',
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset',
]);

/**
 * The metric names a PromQL expression reads. Enough for our own queries:
 * label matchers, ranges, strings and grouping clauses are removed, then every
 * identifier that is not a PromQL word or a function call is a metric.
 */
export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set<string>();
  for (const match of bare.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, word, call] = match;
    if (word && !call && !PROMQL_WORDS.has(word) && !/^\d/.test(word)) names.add(word);
  }
  return [...names];
}

export interface DashboardPanel {
  title: string;
  datasource?: { uid?: string };
  targets?: Array<{ expr?: string; datasource?: { uid?: string } }>;
}
export interface Dashboard {
  uid: string;
  title: string;
  panels: DashboardPanel[];
}

export const DASHBOARDS_DIR = path.join(repoRoot, 'infra/grafana/dashboards');

/** Every dashboard JSON of infra/grafana/dashboards, by file name. */
export function loadDashboards(): Array<{ file: string; dashboard: Dashboard }> {
  return readdirSync(DASHBOARDS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ file, dashboard: JSON.parse(readFileSync(path.join(DASHBOARDS_DIR, file), 'utf8')) as Dashboard }));
}

/** The expressions of infra/prometheus/alerts.yml, by alert name. */
export function loadAlerts(): Array<{ alert: string; expr: string }> {
  const rules = parse(readFileSync(path.join(repoRoot, 'infra/prometheus/alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
  return rules.groups.flatMap((g) => g.rules);
}
