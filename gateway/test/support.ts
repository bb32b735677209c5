import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { testDatabaseUrl } from '@hoptrack/testing';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';

/** A fresh token per test run: Redis keys, emails and request ids never collide with another run. */
export const runId = randomBytes(4).toString('hex');

/** Rate-limit keys of one gateway under test; they expire with the window, nothing to clean up. */
export function rateLimitPrefix(name: string): string {
  return `gwtest:${runId}:${name}:`;
}

/** The real auth service, on its own test database and bus namespace. */
export async function startAuth(): Promise<RunningProcess> {
  return startProcess({
    name: 'auth',
    entry: 'services/auth/src/server.ts',
    port: await freePort(),
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: testDatabaseUrl('auth'),
      NATS_URL: 'nats://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
      // A namespace of this file's own: gateway files may run beside each other.
      BUS_NAMESPACE: `gwtest${runId}`,
      PUBLIC_WEB_URL: 'http://127.0.0.1:5173',
      // The gateway tests register many people from one address.
      REGISTER_RATE_LIMIT_MAX: '1000000',
    },
    readyTimeoutMs: 60_000,
  });
}

/** Log lines arrive asynchronously: wait for the first JSON line that passes `match`. */
export async function waitForLogLine(
  proc: RunningProcess,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs = CONDITION_BOUND_MS,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const raw of proc.lines) {
      const line = parseJson(raw);
      if (line && match(line)) return line;
    }
    if (Date.now() > deadline) throw new Error(`${proc.name}: no matching log line in ${timeoutMs} ms:\n${proc.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The process's log lines that are JSON objects (stderr may carry others). */
export function logLines(proc: RunningProcess): Array<Record<string, unknown>> {
  return proc.lines.map(parseJson).filter((line): line is Record<string, unknown> => line !== undefined);
}

function parseJson(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A stand-in for `vite build` output: index.html plus one hashed asset. */
export async function fakeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hoptrack-web-dist-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Hoptrack test</title><div id="root"></div>');
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("hoptrack");');
  return dir;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface JsonReply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * fetch + JSON body; fails loudly when the body is not JSON (an HTML error page would be a bug).
 * Bounded like any wait of the suite: a failed login's password checks took over 5 s on a busy CI
 * machine (the gateway's own proxy timeout, 30 s, answers a stuck service first).
 */
export async function fetchJson(url: string, init?: RequestInit): Promise<JsonReply> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(CONDITION_BOUND_MS + 5_000) });
  const text = await res.text();
  const parsed = parseJson(text);
  if (!parsed) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} body is not a JSON object: ${text}`);
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The gateway's own errors use the uniform body of proto's errorBody, carrying the response's request id. */
export function expectGatewayError(res: JsonReply, statusCode: number, message: string): void {
  expect(res.status).toBe(statusCode);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    statusCode,
    error: STATUS_CODES[statusCode],
    message,
    requestId: res.headers.get('x-request-id'),
  });
}

/** The commands Redis ran while a RedisMonitor watched, each as its arguments. */
export interface RedisMonitor {
  readonly commands: string[][];
  stop(): void;
}

/**
 * Watches Redis with MONITOR over a plain socket. ioredis's own monitor mode
 * marks itself "monitoring" a microtask after the OK, so when the OK and the
 * first watched line arrive in one chunk (a busy machine) it takes that line
 * for a reply to no command and throws "Command queue state error" — the one
 * failure of a CI run. A socket reading lines has no such window.
 */
export async function watchRedis(url = 'redis://127.0.0.1:6379'): Promise<RedisMonitor> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  const commands: string[][] = [];
  let pending = '';
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\r\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '+OK') resolve();
        else if (line.startsWith('-')) reject(new Error(`MONITOR refused: ${line}`));
        else if (line.startsWith('+')) commands.push(monitorArguments(line));
      }
    });
    socket.write('MONITOR\r\n');
  });
  socket.on('error', () => undefined); // a reset after stop() is no news
  return { commands, stop: () => socket.destroy() };
}

/** `+1712.3 [0 127.0.0.1:5000] "evalsha" "ab\"c"` → ['evalsha', 'ab"c']. */
function monitorArguments(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
}
