import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as connectNats, type NatsConnection } from 'nats';
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
      // Already running: a second process on its port and data would fail and orphan the first.
      if (child && child.exitCode === null && child.signalCode === null) return;
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

/** One node of a private NATS cluster: a PrivateServer with its JetStream `server_name`. */
export interface ClusterNode extends PrivateServer {
  name: string;
}

export interface PrivateNatsCluster {
  nodes: ClusterNode[];
  /** Every node's client address, comma-joined: NATS_URL as the runtime's connectBus reads it. */
  url: string;
  /** Resolves once every running node answers its /healthz (a meta leader elected, its streams and consumers current). */
  ready(timeoutMs?: number): Promise<void>;
  /** The node leading a stream's replicas now (its Raft group leader), or null while none is elected. */
  leaderOf(stream: string): Promise<ClusterNode | null>;
  /** Stops every node and removes their data. */
  stop(): Promise<void>;
}

/**
 * A JetStream cluster as production runs it (deploy/k8s: three nodes, R3
 * streams), on loopback: three `nats-server` processes, each with a config
 * file of its own (client, route and monitoring ports, file storage in a
 * temporary directory), routed to each other. Each node's process starts on
 * its port being open — a node alone cannot elect a meta leader, so its
 * health waits for the others — and the cluster returns once every node
 * reports healthy.
 */
export async function privateNatsCluster(size = 3): Promise<PrivateNatsCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hoptrack-nats-cluster-'));
  const ports = await Promise.all(Array.from({ length: size }, async () => ({ client: await freePort(), route: await freePort(), monitor: await freePort() })));
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.route}`).join(', ');
  const nodes = ports.map((p, i): ClusterNode => {
    const name = `n${i + 1}`;
    const config = path.join(dir, `${name}.conf`);
    writeFileSync(
      config,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${p.client}`,
        `http: 127.0.0.1:${p.monitor}`,
        `jetstream { store_dir: "${path.join(dir, name)}" }`,
        `cluster { name: hoptrack-test, listen: 127.0.0.1:${p.route}, routes: [${routes}] }`,
      ].join('\n'),
    );
    const node = serverProcess(`nats ${name}`, ['nats-server', '-c', config], p.client, () => portOpen(p.client));
    return Object.assign(node, { name, url: `nats://127.0.0.1:${p.client}` });
  });
  const monitor = (i: number, what: string) => fetch(`http://127.0.0.1:${ports[i]?.monitor}/${what}`, { signal: AbortSignal.timeout(2000) });
  /** Healthy, and knows the meta leader (an early /healthz answers ok before the first election). */
  const healthy = async (i: number) => {
    try {
      if (!(await monitor(i, 'healthz')).ok) return false;
      const jsz = (await (await monitor(i, 'jsz')).json()) as { meta_cluster?: { leader?: string } };
      return Boolean(jsz.meta_cluster?.leader);
    } catch {
      return false;
    }
  };
  const url = nodes.map((n) => n.url).join(',');
  let admin: NatsConnection | undefined;
  const cluster: PrivateNatsCluster = {
    nodes,
    url,
    async ready(timeoutMs = READY_BOUND_MS) {
      // A node that is down (its client port closed) is not waited for: the others serve without it.
      const each = () => Promise.all(ports.map(async (p, i) => !(await portOpen(p.client)) || (await healthy(i))));
      await eventually(async () => (await each()).every(Boolean), 'NATS cluster healthy', timeoutMs);
    },
    async leaderOf(stream) {
      // One connection for the questions, reconnecting to whichever node is up.
      admin ??= await connectNats({ servers: url.split(','), name: 'test-cluster-admin', maxReconnectAttempts: -1, reconnectTimeWait: 250 });
      // A short timeout: while no leader is elected the question goes unanswered, and the election is timed by it.
      const jsm = await admin.jetstreamManager({ checkAPI: false, timeout: 1000 });
      const leader = (await jsm.streams.info(stream)).cluster?.leader;
      return nodes.find((n) => n.name === leader) ?? null;
    },
    async stop() {
      await admin?.close();
      await Promise.all(nodes.map((n) => n.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    await cluster.ready();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}
