import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { COMMANDS, PROCESSES, compiledPath } from '../build/catalogue';
import { KILL_AFTER_MS, READY_BOUND_MS } from './bounds';

/**
 * Starts the project's own processes for black-box tests and the dev stack:
 * real child processes on real ports, their output kept for assertions.
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Node itself with tsx's loader, not the tsx CLI: the CLI runs the program as a
// grandchild, so a SIGKILL would hit the wrapper and orphan the real server.
const tsxNode = (entry: string) => [process.execPath, '--import', 'tsx', path.join(repoRoot, entry)];

/**
 * RUN_FROM=dist (what `make test` sets, after `make build`) runs the compiled
 * bundle of an entry the build knows, as production does; otherwise the
 * TypeScript source runs through tsx (make dev, a test run by hand).
 */
const BUILT = new Map([...PROCESSES, ...COMMANDS].map(({ dir, entry }) => [`${dir}/${entry}`, compiledPath(dir, entry)]));
export const runsCompiled = () => process.env.RUN_FROM === 'dist';

export function commandFor(entry: string): string[] {
  const compiled = runsCompiled() ? BUILT.get(entry) : undefined;
  if (!compiled) return tsxNode(entry);
  const file = path.join(repoRoot, compiled);
  if (!existsSync(file)) throw new Error(`${compiled} is missing: RUN_FROM=dist runs the build's output (make build)`);
  return [process.execPath, file];
}

/**
 * `CPU_PROF=sessions,gateway` (names as the stack gives them) starts those
 * processes under V8's sampling profiler; each writes a .cpuprofile to
 * CPU_PROF_DIR/<name> (default .tmp/profiles/<name>) when it exits. Node refuses --cpu-prof
 * in NODE_OPTIONS, hence the flag on the command line. For `make bench`:
 * where a figure misses its goal, the profile says where the time went.
 */
function withProfiler(name: string, command: string[]): string[] {
  const wanted = (process.env.CPU_PROF ?? '').split(',').map((n) => n.trim());
  const [node, ...rest] = command;
  if (!node || !wanted.includes(name)) return command;
  const dir = path.resolve(repoRoot, process.env.CPU_PROF_DIR ?? '.tmp/profiles', name.replace(/[^A-Za-z0-9_-]/g, '_'));
  return [node, '--cpu-prof', `--cpu-prof-dir=${dir}`, ...rest];
}

export interface RunningProcess {
  name: string;
  port: number;
  url: string;
  /**
   * Where its Prometheus metrics are served: its own address, except for a
   * process with an operator port of its own (the gateway, whose public port
   * never serves them: `metricsPort`).
   */
  metricsUrl: string;
  /** Every line the process printed (stdout and stderr), in order; only the last ones with `keepLines`. */
  lines: string[];
  child: ChildProcess;
  /** Stops the process (SIGTERM, SIGKILL after KILL_AFTER_MS) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves when the process has exited, however (a test that signals it itself waits on this). */
  exited: Promise<void>;
  /** How it was started: `startProcess(proc.options)` starts it again (fault tests). */
  options: StartOptions;
}

export interface StartOptions {
  name: string;
  /** A .ts entry point run with tsx, relative to the repository root... */
  entry?: string;
  /** ...or any command (the Vite dev server), run in `cwd`. */
  command?: string[];
  cwd?: string;
  port: number;
  env: Record<string, string | undefined>;
  /** Path polled until it answers 200; defaults to /healthz. */
  readyPath?: string;
  readyTimeoutMs?: number;
  /** Echo output to this process's stdout with a name prefix (the dev stack). */
  echo?: boolean;
  /** Keep only this many of the last lines in `lines` (default: keepLastLines, else every line). */
  keepLines?: number;
  /** The port its metrics are on, when not `port` (the gateway's operator port). */
  metricsPort?: number;
}

/**
 * How many lines a process started without `keepLines` keeps: every one by
 * default, for the tests' assertions. The benchmark runs the stack at
 * production's log level (a line or two per request) for many minutes: it
 * still reads every line off the pipe, as production's log collector does,
 * but keeps only the last few for its error report instead of all of them.
 */
let defaultKeptLines = Number.POSITIVE_INFINITY;
export function keepLastLines(count: number): void {
  defaultKeptLines = count;
}

/**
 * A port nothing listens on, below the kernel's ephemeral range (32768 and
 * up on Linux): a process restarted on its port (the fault and rolling-restart
 * tests) must find it free, and a port from the ephemeral range can meanwhile
 * become the source port of some outgoing connection (a service's to Postgres).
 */
const PORT_RANGE = { from: 20_000, to: 32_000 };
/**
 * Ports are picked at random and only tried, not held, until the process
 * listens: so this process never hands one out twice, and each Vitest worker
 * (a process of its own) picks from its own slice of the range.
 */
const handedOut = new Set<number>();
const SLICES = 4;
const slice = Number(process.env.VITEST_POOL_ID ?? 0) % SLICES;
const sliceSize = Math.floor((PORT_RANGE.to - PORT_RANGE.from) / SLICES);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORT_RANGE.from + slice * sliceSize + Math.floor(Math.random() * sliceSize);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
}

export async function startProcess(options: StartOptions): Promise<RunningProcess> {
  const [command, ...args] = options.command ?? withProfiler(options.name, commandFor(options.entry ?? ''));
  if (!command || (!options.command && !options.entry)) throw new Error(`${options.name}: give an entry or a command`);
  const child = spawn(command, args, {
    cwd: options.cwd ?? repoRoot,
    // The child ends itself should this process die without stopping it (see exitWithParent).
    env: {
      ...process.env,
      // A test stops many processes; production's 2 s drain (readiness 503 before closing) would only slow them.
      // The rolling-restart test sets production's figure back.
      SHUTDOWN_DRAIN_MS: '300',
      ...options.env,
      PORT: String(options.port),
      EXIT_WITH_PARENT_PID: String(process.pid),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = options.keepLines ?? defaultKeptLines;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (options.echo) process.stdout.write(`[${options.name}] ${line}\n`);
    }
    // Trimmed in batches (at twice the limit), so a busy process costs an occasional splice, not one per line.
    if (lines.length > 2 * keep) lines.splice(0, lines.length - keep);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = `http://127.0.0.1:${options.port}`;
  const running: RunningProcess = {
    name: options.name,
    port: options.port,
    url,
    metricsUrl: options.metricsPort ? `http://127.0.0.1:${options.metricsPort}` : url,
    lines,
    options,
    child,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? READY_BOUND_MS);
  const readyUrl = `${url}${options.readyPath ?? '/healthz'}`;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${options.name} exited with ${child.exitCode} before it was ready:\n${lines.join('\n')}`);
    }
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return running;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await running.stop('SIGKILL');
  throw new Error(`${options.name} was not ready at ${readyUrl} in time:\n${lines.join('\n')}`);
}
