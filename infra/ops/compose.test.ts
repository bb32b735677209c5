import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';
import { compiledPath, PROCESSES } from '../build/catalogue';

/**
 * The operators' compose stack, linted without a Docker engine (there is none
 * on CI): the file parses, every service has a health check and an image or a
 * build, entry points exist, workers can scale, every variable is documented
 * in .env.example, Prometheus scrapes services that exist, every process runs
 * compiled and replicated. The compose tool itself (`docker compose`, else
 * Debian's docker-compose, which make test installs) must accept the file,
 * and HAProxy the edge's configuration.
 */
interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  healthcheck?: { test?: string[] };
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  container_name?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
}

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const WORKERS = ['thumbnail-worker', 'fanout-worker'];

/** `docker compose` (the plugin) where it is installed, else Debian's docker-compose 1.29; neither needs an engine for `config`. */
function composeCommand(): string[] {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return ['docker', 'compose'];
  } catch {
    return ['docker-compose'];
  }
}
const nodeServices = services.filter(([, s]) => s.command?.[0] === 'node');

describe('docker-compose.yml', () => {
  it('runs the infrastructure, every service and worker, the gateway, Prometheus, Grafana and the queue board', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'postgres', 'redis', 'redis-timelines', 'nats', 'minio',
        'auth', 'social-graph', 'media', 'places', 'sessions', 'messaging', 'notifications', 'challenges',
        'thumbnail-worker', 'fanout-worker', 'gateway', 'edge', 'queue-board', 'prometheus', 'grafana',
      ].sort(),
    );
  });

  it.each(services)('%s has a health check and an image or a build', (_name, service) => {
    expect(service.healthcheck?.test?.length).toBeGreaterThan(0);
    expect(service.image ?? service.build).toBeTruthy();
  });

  it.each(nodeServices)('%s starts a compiled entry point that exists (make build), never TypeScript', (_name, service) => {
    expect(service.command).toHaveLength(2);
    const entry = service.command?.at(-1) ?? '';
    expect(entry).toMatch(/\/dist\/.+\.js$/);
    expect(existsSync(path.join(repoRoot, entry)), entry).toBe(true);
  });

  it("keeps every process's Postgres connections, at four copies of each, under max_connections", () => {
    const setting = /max_connections=(\d+)/.exec((compose.services.postgres?.command ?? []).join(' '));
    const budget = Number(setting?.[1] ?? 100) - 3;
    const withDatabase = nodeServices.filter(([, s]) => s.environment?.DATABASE_URL);
    expect(withDatabase.length).toBeGreaterThanOrEqual(10);
    // Each copy: its pool, and the pruner's one connection (runtime/src/db/retention.ts).
    const perCopy = (s: ComposeService) => Number(s.environment?.DATABASE_POOL_MAX ?? 10) + 1;
    const atScale = withDatabase.reduce((sum, [, s]) => sum + Math.max(4, s.deploy?.replicas ?? 1) * perCopy(s), 0);
    expect(atScale).toBeLessThanOrEqual(budget);
  });

  it('runs every process of the catalogue, each as two replicas or more', () => {
    const commands = nodeServices.map(([, s]) => s.command?.at(-1));
    for (const process of PROCESSES) expect(commands, process.name).toContain(compiledPath(process.dir, process.entry));
    for (const [name, service] of nodeServices) expect(service.deploy?.replicas ?? 1, name).toBeGreaterThanOrEqual(2);
  });

  it('starts services only after what they need is healthy', () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(compose.services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        expect(condition, `${name} → ${dependency}`).toBe('service_healthy');
      }
    }
  });

  it('keeps Redis from evicting BullMQ keys and persists it', () => {
    expect(compose.services.redis?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction']));
  });

  it('gives the timelines a Redis of their own that evicts, for the sessions API and the fan-out worker only', () => {
    expect(compose.services['redis-timelines']?.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'allkeys-lru']));
    const using = services.filter(([, s]) => JSON.stringify(s.environment ?? {}).includes('TIMELINE_REDIS_URL')).map(([name]) => name);
    expect(using.sort()).toEqual(['fanout-worker', 'sessions']);
  });

  it('lets every process scale: no fixed name, no published port', () => {
    for (const [name, service] of nodeServices) {
      expect(service.container_name, name).toBeUndefined();
      expect(service.ports, name).toBeUndefined();
    }
    expect(nodeServices.map(([name]) => name)).toEqual(expect.arrayContaining(WORKERS));
  });

  it('publishes only the edge to the world; operator tools listen on localhost', () => {
    for (const [name, service] of services) {
      for (const port of service.ports ?? []) {
        if (name === 'edge' && port.endsWith(':8080')) continue;
        expect(port, name).toMatch(/^127\.0\.0\.1:/);
      }
    }
  });

  it('has the edge balance over the gateway and queue board replicas, checking their readiness', () => {
    const config = read('infra/haproxy/haproxy.cfg');
    expect(config).toMatch(/server-template gateway \d+ gateway:8080/);
    expect(config).toMatch(/server-template queue-board \d+ queue-board:4020/);
    expect(config.match(/option httpchk GET \/readyz/g)).toHaveLength(2);
    // HAProxy's own check of the file (Debian's haproxy, installed by make test).
    execFileSync('haproxy', ['-c', '-q', '-f', path.join(repoRoot, 'infra/haproxy/haproxy.cfg')], { stdio: 'pipe' });
  });

  it('documents every variable it reads in .env.example', () => {
    const documented = new Set([...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const used = new Set([...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
  });

  it('builds the image with every workspace of the repository', () => {
    const dockerfile = read('infra/docker/node.Dockerfile');
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const workspace of workspaces) expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    expect(dockerfile).toMatch(/^USER node$/m);
    // The memory settings docs/benchmarks.md ('Process footprint') measured with.
    expect(dockerfile).toMatch(/^ENV MALLOC_ARENA_MAX=2$/m);
    expect(dockerfile).toMatch(/^ENV NODE_OPTIONS=--max-semi-space-size=4$/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThan(1);
  });

  it('has Prometheus scrape compose services that exist, on the ports they listen on', () => {
    const prometheus = parse(read('infra/prometheus/prometheus.yml')) as {
      scrape_configs: Array<{ job_name: string; static_configs?: Array<{ targets: string[] }>; dns_sd_configs?: Array<{ names: string[]; port: number }> }>;
    };
    for (const job of prometheus.scrape_configs) {
      const targets = [
        ...(job.static_configs ?? []).flatMap((c) => c.targets.map((t) => t.split(':') as [string, string])),
        ...(job.dns_sd_configs ?? []).flatMap((c) => c.names.map((n) => [n, String(c.port)] as [string, string])),
      ];
      expect(targets.length, job.job_name).toBeGreaterThan(0);
      for (const [host, port] of targets) {
        const service = compose.services[host];
        expect(service, `${job.job_name} → ${host}`).toBeDefined();
        // The gateway's metrics are on its operator port, never on its public one (issue 39).
        const metricsPort = host === 'gateway' ? service?.environment?.GATEWAY_METRICS_PORT : service?.environment?.PORT;
        expect(metricsPort, `${job.job_name} → ${host}:${port}`).toBe(port);
        if (host === 'gateway') expect(port).not.toBe(service?.environment?.PORT);
      }
    }
  });

  it('is accepted by the compose tool, which resolves every stateless process to 2+ replicas', () => {
    const [command, ...args] = composeCommand();
    const resolved = execFileSync(command as string, [...args, '--env-file', '.env.example', 'config'], {
      cwd: repoRoot,
      stdio: 'pipe',
      env: { ...process.env, JWT_SIGNING_KEYS: '[]', FILE_URL_SECRET: 'x'.repeat(32), UNSUBSCRIBE_SECRET: 'u'.repeat(32), POSTGRES_PASSWORD: 'p', MINIO_ROOT_PASSWORD: 'p'.repeat(8), GRAFANA_ADMIN_PASSWORD: 'p', QUEUE_BOARD_PASSWORD: 'p'.repeat(12) },
    }).toString();
    const config = parse(resolved) as { services: Record<string, ComposeService> };
    const ours = Object.entries(config.services).filter(([, s]) => s.command?.[0] === 'node');
    expect(ours.map(([name]) => name).sort()).toEqual(nodeServices.map(([name]) => name).sort());
    for (const [name, service] of ours) expect(service.deploy?.replicas, name).toBeGreaterThanOrEqual(2);
  });
});
