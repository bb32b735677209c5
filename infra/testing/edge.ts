import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, repoRoot, startProcess, type RunningProcess } from './processes';

/**
 * The production edge (infra/haproxy/haproxy.cfg, compose's `edge`) in front
 * of gateways started by a test: the same timeouts, checks and retry rules,
 * with the Docker DNS discovery swapped for the gateways' addresses and the
 * ports for free ones. A test that restarts gateways sends its traffic here,
 * as people's browsers reach production.
 */
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((file) => existsSync(file)) ?? 'haproxy';

export interface Edge {
  /** The one address the traffic uses. */
  baseUrl: string;
  /** The stats frontend: HAProxy's Prometheus metrics at its /metrics (haproxy_server_status and the rest). */
  statsUrl: string;
  process: RunningProcess;
  stop(): Promise<void>;
}

/** The production configuration, rewritten for `gatewayUrls` on this machine. */
export function edgeConfig(options: { port: number; statsPort: number; gatewayUrls: string[] }): string {
  const production = readFileSync(path.join(repoRoot, 'infra/haproxy/haproxy.cfg'), 'utf8');
  const servers = options.gatewayUrls.map((url, i) => `  server gateway${i + 1} ${new URL(url).host}`).join('\n');
  const config = production
    // No Docker DNS here: the gateways are named below.
    .replace(/\nresolvers docker\n(?: {2}.*\n)+/, '\n')
    .replace(/ resolvers docker init-addr none/g, '')
    .replace(/ {2}server-template gateway \d+ gateway:8080/, servers)
    // The queue boards are not the test's business.
    .replace(/\nfrontend queues\n(?: {2}.*\n)+/, '\n')
    .replace(/\nbackend queue-boards\n(?: {2}.*\n?)+/, '\n')
    .replace(/bind :8080/, `bind 127.0.0.1:${options.port}`)
    .replace(/bind :8404/, `bind 127.0.0.1:${options.statsPort}`)
    // One line per request is the test's noise; what goes wrong still shows in the answers.
    .replace(/ {2}log stdout format raw local0 info/, '  log stdout format raw local0 warning');
  if (config.includes('server-template') || config.includes('resolvers') || !config.includes(servers)) {
    throw new Error('infra/haproxy/haproxy.cfg changed shape: teach infra/testing/edge.ts the new one');
  }
  return config;
}

export async function startEdge(gatewayUrls: string[]): Promise<Edge> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hoptrack-edge-')), 'haproxy.cfg');
  writeFileSync(file, edgeConfig({ port, statsPort, gatewayUrls }));
  // -db: stay in the foreground, as the test's other processes do.
  const proc = await startProcess({ name: 'edge', command: [HAPROXY, '-db', '-f', file], port, env: {}, readyPath: '/healthz' });
  return { baseUrl: proc.url, statsUrl: `http://127.0.0.1:${statsPort}`, process: proc, stop: () => proc.stop() };
}
