/**
 * The sessions service alone, on the data of the last `make bench`, in a
 * closed loop: what one feed page (or one create) costs the service, Postgres
 * and Redis, in CPU ms, without the gateway, the workers or an open-loop
 * ladder. Minutes per try instead of a full run, for working on one path;
 * the before/after rows of docs/benchmarks.md marked 'service loop' come
 * from it. Compare builds on one machine, back to back, never across machines.
 *
 *   RUN_FROM=dist npx tsx infra/bench/service-loop.ts            # feed pages
 *   MODE=create npx tsx infra/bench/service-loop.ts              # session creates
 *   SESSIONS_DIST=/other/checkout/services/sessions/dist/server.js ...   # another build
 *   PROF=1 ...                                                   # the service under --cpu-prof (.tmp/profiles/service-loop)
 *
 * N requests (default 6000) at CONC at once (default 8), over 200 seeded
 * readers, after 400 warm-up pages. Needs the `*_bench` databases and the
 * `bench` namespace a full or partial `make bench` left behind.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTokenService, DEV_SIGNING_KEY } from '@hoptrack/runtime';
import { freePort } from '@hoptrack/testing/processes';
import { pgBase } from '@hoptrack/testing/stack';
import { sessionFormBody, SESSION_FORM_CONTENT_TYPE } from './lib/session-form';
import { userId } from './seed';

const mode = process.env.MODE === 'create' ? 'create' : 'feed';
const concurrency = Number(process.env.CONC ?? 8);
const total = Number(process.env.N ?? 6000);
const entry = process.env.SESSIONS_DIST ?? 'services/sessions/dist/server.js';
const port = await freePort();
const child = spawn(
  process.execPath,
  [...(process.env.PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve('.tmp/profiles/service-loop')}`] : []), entry],
  {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DATABASE_URL: `${pgBase()}/hoptrack_sessions_bench`,
      BUS_NAMESPACE: 'bench',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      READ_MODEL_CONSUMER: 'service-loop-rm',
      CARDS_CONSUMER: 'service-loop-cards',
      // As production runs it (infra/docker/node.Dockerfile).
      NODE_OPTIONS: '--max-semi-space-size=4',
      MALLOC_ARENA_MAX: '2',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const base = `http://127.0.0.1:${port}`;
for (;;) {
  const ready = await fetch(`${base}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ready) break;
  await new Promise((r) => setTimeout(r, 200));
}

const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });
const readers = await Promise.all(Array.from({ length: 200 }, (_, i) => tokens.sign({ userId: userId(i + 2), tokenVersion: 0 })));
const form = new Uint8Array(sessionFormBody({ title: 'Service loop pints', beerCount: '3', duration: '90', avgAbv: '5.2', beerTypes: '["IPA"]' }));

async function call(i: number, what: 'feed' | 'create'): Promise<void> {
  const authorization = `Bearer ${readers[i % readers.length]}`;
  const res =
    what === 'feed'
      ? await fetch(`${base}/api/sessions?limit=20`, { headers: { authorization } })
      : await fetch(`${base}/api/sessions`, { method: 'POST', body: form, headers: { authorization, 'content-type': SESSION_FORM_CONTENT_TYPE } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${what} answered ${res.status}`);
}

/** CPU ms (user + system) of the processes whose name starts with `name`, or of one pid. */
function cpuMs(match: { pid: number } | { name: string }): number {
  let sum = 0;
  for (const pid of 'pid' in match ? [String(match.pid)] : readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if ('name' in match && !stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith(match.name)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}
const self = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

try {
  for (let i = 0; i < 400; i++) await call(i, 'feed');
  const before = { service: cpuMs({ pid: child.pid ?? 0 }), postgres: cpuMs({ name: 'postgres' }), redis: cpuMs({ name: 'redis-server' }), generator: self() };
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++, mode);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const per = (now: number, then: number) => ((now - then) / total).toFixed(3);
  console.log(
    `${mode}: ${total} in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)}/s at ${concurrency} at once; CPU ms each: ` +
      `sessions ${per(cpuMs({ pid: child.pid ?? 0 }), before.service)}, postgres ${per(cpuMs({ name: 'postgres' }), before.postgres)}, ` +
      `redis ${per(cpuMs({ name: 'redis-server' }), before.redis)}, this loop ${per(self(), before.generator)}`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
