import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';

/**
 * The operators' compose stack, linted without a Docker engine (there is none
 * on CI): the file parses, every service has a health check and an image or a
 * build, entry points exist, workers can scale, every variable is documented
 * in .env.example, Prometheus scrapes services that exist. Where the compose
 * tool is installed, `docker compose config` must accept the file too.
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
}

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const WORKERS = ['thumbnail-worker', 'fanout-worker'];

function composeAvailable(): boolean {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('docker-compose.yml', () => {
  it('runs the infrastructure, every service and worker, the gateway, Prometheus, Grafana and the queue board', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'postgres', 'redis', 'nats', 'minio',
        'auth', 'social-graph', 'media', 'places', 'sessions', 'messaging',
        'thumbnail-worker', 'fanout-worker', 'gateway', 'queue-board', 'prometheus', 'grafana',
      ].sort(),
    );
  });

  it.each(services)('%s has a health check and an image or a build', (_name, service) => {
    expect(service.healthcheck?.test?.length).toBeGreaterThan(0);
    expect(service.image ?? service.build).toBeTruthy();
  });

  it.each(services.filter(([, s]) => s.command?.[0] === 'node'))('%s starts an entry point that exists', (_name, service) => {
    const entry = service.command?.at(-1) ?? '';
    expect(existsSync(path.join(repoRoot, entry)), entry).toBe(true);
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
    expect(compose.services.redis?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']));
  });

  it('lets workers scale: no fixed name, no published port', () => {
    for (const worker of WORKERS) {
      expect(compose.services[worker]?.container_name, worker).toBeUndefined();
      expect(compose.services[worker]?.ports, worker).toBeUndefined();
    }
  });

  it('publishes only the gateway to the world; operator tools listen on localhost', () => {
    for (const [name, service] of services) {
      for (const port of service.ports ?? []) {
        if (name === 'gateway') continue;
        expect(port, name).toMatch(/^127\.0\.0\.1:/);
      }
    }
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
        expect(service?.environment?.PORT, `${job.job_name} → ${host}:${port}`).toBe(port);
      }
    }
  });

  it.skipIf(!composeAvailable())('is accepted by `docker compose config`', () => {
    execFileSync('docker', ['compose', '--env-file', '.env.example', 'config', '--quiet'], {
      cwd: repoRoot,
      stdio: 'pipe',
      env: { ...process.env, JWT_SIGNING_KEYS: '[]', FILE_URL_SECRET: 'x'.repeat(32), POSTGRES_PASSWORD: 'p', MINIO_ROOT_PASSWORD: 'p'.repeat(8), GRAFANA_ADMIN_PASSWORD: 'p', QUEUE_BOARD_PASSWORD: 'p'.repeat(12) },
    });
  });
  if (!composeAvailable()) console.warn('docker compose is not installed here: `docker compose config` is skipped; the file is linted above instead');
});
