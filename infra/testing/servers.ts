import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { READY_BOUND_MS } from './bounds';
import { eventually } from './events';
import { freePort } from './processes';

/**
 * Infrastructure servers of a test's own (Postgres, NATS), on free ports and
 * in temporary directories, so a fault test can kill -9 and restart them
 * without touching the machine's shared servers the other tests use.
 */
export interface PrivateServer {
  port: number;
  url: string;
  /** Every line the server printed. */
  lines: string[];
  /** kill -9 of the server and all its children (its process group). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** A server process in its own process group, so kill -9 reaches its children too. */
function serverProcess(name: string, command: string[], port: number, ready: () => Promise<boolean>): PrivateServer {
  let child: ChildProcess | undefined;
  const lines: string[] = [];
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  const signalGroup = (signal: NodeJS.Signals) => {
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const server: PrivateServer = {
    port,
    url: '',
    lines,
    async start() {
      const [bin, ...args] = command;
      child = spawn(bin as string, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      await eventually(async () => child?.exitCode === null && (await ready()), `${name} ready`, READY_BOUND_MS).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${lines.slice(-20).join('\n')}`);
      });
    },
    async kill() {
      signalGroup('SIGKILL');
      await exited();
      // Orphaned children of the group die with it; wait until the port is free again.
      await eventually(async () => !(await portOpen(port)), `${name} gone`);
    },
    async stop() {
      signalGroup('SIGTERM');
      await exited();
    },
  };
  return server;
}

const postgresBin = () => {
  const version = readdirSync('/usr/lib/postgresql').sort().at(-1);
  if (!version) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${version}/bin`;
};
/** Postgres refuses to run as root: run it as the `postgres` system user. */
const asPostgres = (command: string[]) => (process.getuid?.() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', ...command] : command);

export async function privatePostgres(): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hoptrack-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const [initdb, ...initArgs] = asPostgres([`${postgresBin()}/initdb`, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  execFileSync(initdb as string, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const isReady = async () => {
    try {
      execFileSync(`${postgresBin()}/pg_isready`, ['-h', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const server = serverProcess(
    'postgres',
    asPostgres([`${postgresBin()}/postgres`, '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200']),
    port,
    isReady,
  );
  server.url = `postgresql://postgres@127.0.0.1:${port}`;
  await server.start();
  return server;
}

export async function privateNats(): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hoptrack-nats-'));
  const port = await freePort();
  const server = serverProcess('nats', ['nats-server', '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], port, () => portOpen(port));
  server.url = `nats://127.0.0.1:${port}`;
  await server.start();
  return server;
}

/** Redis as compose runs it for BullMQ: append-only file, every write synced, never evicting. */
export async function privateRedis(): Promise<PrivateServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hoptrack-redis-'));
  const port = await freePort();
  const server = serverProcess(
    'redis',
    ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--maxmemory-policy', 'noeviction'],
    port,
    () => portOpen(port),
  );
  server.url = `redis://127.0.0.1:${port}`;
  await server.start();
  return server;
}
