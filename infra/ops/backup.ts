/**
 * The operators' backup and restore (issue 38, item 7; docs/operations.md,
 * 'Back up and restore'): every service database, the object store and the
 * JetStream streams, into one folder, and back into an empty system.
 *
 *   node infra/ops/dist/backup.js backup <folder>     (make backup)
 *   node infra/ops/dist/backup.js restore <folder>    (make restore BACKUP=<folder>)
 *
 * Reads the services' own settings: PG_URL (the Postgres server, no database),
 * DATABASE_SUFFIX (tests and drills: appended to every database name), S3_*,
 * NATS_URL, NATS_STREAM_REPLICAS and BUS_NAMESPACE. A restore may go to
 * another namespace and suffix than the backup came from (a drill beside the
 * live system).
 *
 * Order of a backup: databases, then objects, then streams. Read last, the
 * streams hold every event the restored databases have not yet applied (the
 * consumers replay them; their inboxes skip what the databases already hold),
 * and every object a restored row names was stored before its row committed.
 *
 * The erasure ledger is not in the backup, and a restore never writes it: its
 * last step erases again every account the live ledger names
 * (services/auth/src/reapply-erasures.ts), so a person deleted after the
 * backup stays deleted.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Client as S3Client } from 'minio';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import { connectBus, createLogger, ensureStreams, type Bus } from '@hoptrack/runtime';
import { PROCESSES } from '../build/catalogue';

const logger = createLogger('backup', process.env.LOG_LEVEL ?? 'info');
const here = path.dirname(fileURLToPath(import.meta.url));
/** infra/ops/dist/backup.js when built, infra/ops/backup.ts through tsx. */
const repoRoot = path.resolve(here, path.basename(here) === 'dist' ? '../../..' : '../..');

interface Settings {
  pgUrl: string;
  suffix: string;
  namespace: string;
  natsUrl: string;
  streamReplicas: number;
  s3: { endpoint: string; accessKey: string; secretKey: string; region: string; bucket: string };
}

function settings(): Settings {
  const env = process.env;
  return {
    pgUrl: (env.PG_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/$/, ''),
    suffix: env.DATABASE_SUFFIX ?? '',
    namespace: env.BUS_NAMESPACE ?? 'hoptrack',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    streamReplicas: Number(env.NATS_STREAM_REPLICAS ?? 1),
    s3: {
      endpoint: env.S3_ENDPOINT ?? 'http://127.0.0.1:4569',
      accessKey: env.S3_ACCESS_KEY ?? 'S3RVER',
      secretKey: env.S3_SECRET_KEY ?? 'S3RVER',
      region: env.S3_REGION ?? 'us-east-1',
      bucket: env.S3_BUCKET ?? 'hoptrack-media',
    },
  };
}

/** What a backup holds and where it came from; restore reads it first. */
interface Manifest {
  takenAt: string;
  namespace: string;
  databases: string[];
  objects: number;
  /** Messages per stream (by its name without the namespace). */
  streams: Partial<Record<StreamName, number>>;
}

/** Every service database (each once: a worker shares its service's). */
const DATABASES = [...new Set(PROCESSES.flatMap((p) => (p.database ? [p.database] : [])))];

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin?.end(input);
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args[0] ?? ''} exited ${code}: ${err.trim().slice(-2000)}`))));
  });
}

function s3Client(s: Settings['s3']): S3Client {
  const url = new URL(s.endpoint);
  return new S3Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: s.accessKey,
    secretKey: s.secretKey,
    region: s.region,
    pathStyle: true,
  });
}

// --- backup -----------------------------------------------------------------

async function backupDatabases(s: Settings, folder: string): Promise<void> {
  await mkdir(path.join(folder, 'postgres'), { recursive: true });
  for (const name of DATABASES) {
    // Custom format: compressed, and pg_restore can recreate it into any database name.
    await run('pg_dump', ['--format=custom', '--no-owner', '--file', path.join(folder, 'postgres', `${name}.dump`), `${s.pgUrl}/${name}${s.suffix}`]);
    logger.info({ database: name + s.suffix }, 'database saved');
  }
}

/** Object keys are S3 paths (`<user>/<id>/original.jpg`); they become paths under objects/, with a list beside them for the content types. */
async function backupObjects(s: Settings, folder: string): Promise<number> {
  const client = s3Client(s.s3);
  const list = createWriteStream(path.join(folder, 'objects.jsonl'));
  let count = 0;
  for await (const item of client.listObjectsV2(s.s3.bucket, '', true)) {
    const { name } = item as { name?: string };
    if (!name) continue;
    const file = path.join(folder, 'objects', name);
    if (!file.startsWith(path.join(folder, 'objects') + path.sep)) throw new Error(`object key ${name} leaves the backup folder`);
    await mkdir(path.dirname(file), { recursive: true });
    const info = await client.statObject(s.s3.bucket, name);
    await pipeline(await client.getObject(s.s3.bucket, name), createWriteStream(file));
    list.write(`${JSON.stringify({ key: name, contentType: String(info.metaData['content-type'] ?? 'application/octet-stream') })}\n`);
    count += 1;
  }
  await new Promise<void>((resolve, reject) => list.end((err?: Error | null) => (err ? reject(err) : resolve())));
  logger.info({ objects: count }, 'objects saved');
  return count;
}

interface SavedMessage {
  /** The subject without the namespace (`session.created.v1`): a restore may publish it under another. */
  subject: string;
  data: string;
  headers: Array<[string, string]>;
}

function headerPairs(headers: MsgHdrs | undefined): Array<[string, string]> {
  if (!headers) return [];
  return [...headers.keys()].flatMap((key) => headers.values(key).map((value) => [key, value] as [string, string]));
}

/** Each stream's messages, oldest first, up to its last sequence when the backup reached it. */
async function backupStreams(bus: Bus, folder: string): Promise<Manifest['streams']> {
  await mkdir(path.join(folder, 'streams'), { recursive: true });
  const counts: Manifest['streams'] = {};
  for (const stream of Object.keys(streams) as StreamName[]) {
    const name = streamNameFor(bus.namespace, stream);
    const info = await bus.jsm.streams.info(name).catch(() => null);
    const out = createWriteStream(path.join(folder, 'streams', `${stream}.jsonl`));
    let count = 0;
    if (info && info.state.messages > 0) {
      // An ordered consumer: no durable state left behind on the server, and it reads in order.
      const consumer = await bus.js.consumers.get(name);
      const messages = await consumer.consume();
      for await (const message of messages) {
        const saved: SavedMessage = { subject: message.subject.slice(bus.namespace.length + 1), data: Buffer.from(message.data).toString('base64'), headers: headerPairs(message.headers) };
        out.write(`${JSON.stringify(saved)}\n`);
        count += 1;
        if (message.seq >= info.state.last_seq) break;
      }
      await messages.close();
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    counts[stream] = count;
  }
  logger.info({ streams: counts }, 'streams saved');
  return counts;
}

async function backup(folder: string): Promise<Manifest> {
  const s = settings();
  await mkdir(folder, { recursive: true });
  const takenAt = new Date().toISOString();
  await backupDatabases(s, folder);
  const objects = await backupObjects(s, folder);
  const bus = await connectBus({ url: s.natsUrl, name: 'backup', namespace: s.namespace, logger });
  try {
    const manifest: Manifest = { takenAt, namespace: s.namespace, databases: DATABASES, objects, streams: await backupStreams(bus, folder) };
    await writeFile(path.join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await bus.close();
  }
}

// --- restore ----------------------------------------------------------------

/** Refuses to restore over data: a restore goes into an empty system (docs/operations.md says how to empty one). */
async function createEmptyDatabase(s: Settings, name: string): Promise<void> {
  const exists = (await run('psql', [`${s.pgUrl}/postgres`, '-tAc', `SELECT 1 FROM pg_database WHERE datname = '${name}'`])).trim() === '1';
  if (exists) {
    const tables = Number((await run('psql', [`${s.pgUrl}/${name}`, '-tAc', "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"])).trim());
    if (tables > 0) throw new Error(`database ${name} is not empty: a restore goes into an empty system`);
  } else {
    await run('psql', [`${s.pgUrl}/postgres`, '-c', `CREATE DATABASE "${name}"`]);
  }
}

async function restoreDatabases(s: Settings, folder: string, manifest: Manifest): Promise<void> {
  for (const name of manifest.databases) {
    if (!/^[A-Za-z0-9_]+$/.test(name + s.suffix)) throw new Error(`unusual database name ${name}${s.suffix}`);
    await createEmptyDatabase(s, name + s.suffix);
    const url = `${s.pgUrl}/${name}${s.suffix}`;
    const dump = path.join(folder, 'postgres', `${name}.dump`);
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--section=pre-data', '--section=data', '--dbname', url, dump]);
    // Indexes and constraints with the public schema on the path: pg_restore empties it, and
    // earthdistance's ll_to_earth (places' bar-location index) names its `earth` type unqualified,
    // so the index fails to build without it. Every object in the dump is schema-qualified.
    const postData = (await run('pg_restore', ['--no-owner', '--section=post-data', '--file=-', dump])).replace(
      "SELECT pg_catalog.set_config('search_path', '', false);",
      'SET search_path = public, pg_catalog;',
    );
    await run('psql', ['--quiet', '--no-psqlrc', '-v', 'ON_ERROR_STOP=1', '--dbname', url], process.env, postData);
    logger.info({ database: name + s.suffix }, 'database restored');
  }
}

async function* lines(file: string): AsyncGenerator<string> {
  if (!existsSync(file)) return;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.trim()) yield line;
}

async function restoreObjects(s: Settings, folder: string): Promise<number> {
  const client = s3Client(s.s3);
  if (!(await client.bucketExists(s.s3.bucket))) await client.makeBucket(s.s3.bucket, s.s3.region);
  let count = 0;
  for await (const line of lines(path.join(folder, 'objects.jsonl'))) {
    const { key, contentType } = JSON.parse(line) as { key: string; contentType: string };
    const file = path.join(folder, 'objects', key);
    const { size } = await stat(file);
    await client.putObject(s.s3.bucket, key, createReadStream(file), size, { 'Content-Type': contentType });
    count += 1;
  }
  logger.info({ objects: count }, 'objects restored');
  return count;
}

/** Each message published again under the target namespace, with its msg id (the envelope's id: consumers' inboxes know it). */
async function restoreStreams(bus: Bus, folder: string): Promise<Manifest['streams']> {
  const names = Object.keys(streams) as StreamName[];
  await ensureStreams(bus, names);
  const counts: Manifest['streams'] = {};
  for (const stream of names) {
    const info = await bus.jsm.streams.info(streamNameFor(bus.namespace, stream));
    if (info.state.messages > 0) throw new Error(`stream ${info.config.name} is not empty: a restore goes into an empty system`);
    let count = 0;
    for await (const line of lines(path.join(folder, 'streams', `${stream}.jsonl`))) {
      const saved = JSON.parse(line) as SavedMessage;
      const headers = natsHeaders();
      for (const [key, value] of saved.headers) if (key !== 'Nats-Msg-Id') headers.append(key, value);
      const msgId = saved.headers.find(([key]) => key === 'Nats-Msg-Id')?.[1];
      await bus.js.publish(`${bus.namespace}.${saved.subject}`, Buffer.from(saved.data, 'base64'), { headers, ...(msgId ? { msgID: msgId } : {}) });
      count += 1;
    }
    counts[stream] = count;
  }
  logger.info({ streams: counts }, 'streams restored');
  return counts;
}

/** auth's command, compiled when the build has run (production), else its source through tsx. */
function reapplyCommand(): string[] {
  const compiled = path.join(repoRoot, 'services/auth/dist/reapply-erasures.js');
  if (existsSync(compiled)) return [process.execPath, compiled];
  return [process.execPath, '--import', 'tsx', path.join(repoRoot, 'services/auth/src/reapply-erasures.ts')];
}

/** The last step: the ledger's accounts, erased again in the restored data. */
async function reapplyErasures(s: Settings): Promise<number> {
  const [command, ...args] = reapplyCommand();
  const out = await run(command as string, args, {
    ...process.env,
    DATABASE_URL: `${s.pgUrl}/hoptrack_auth${s.suffix}`,
    // Without its own setting, the ledger is the one beside the live auth database, not the restored one's name.
    ERASURE_LEDGER_URL: process.env.ERASURE_LEDGER_URL ?? `${s.pgUrl}/hoptrack_auth_erasure_ledger`,
    LOG_LEVEL: 'warn',
  });
  const last = out.trim().split('\n').at(-1) ?? '{}';
  return (JSON.parse(last) as { erased?: number }).erased ?? 0;
}

async function restore(folder: string): Promise<{ manifest: Manifest; erased: number }> {
  const s = settings();
  const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
  await restoreDatabases(s, folder, manifest);
  const objects = await restoreObjects(s, folder);
  if (objects !== manifest.objects) throw new Error(`restored ${objects} objects of the backup's ${manifest.objects}`);
  const bus = await connectBus({ url: s.natsUrl, name: 'restore', namespace: s.namespace, logger, streamReplicas: s.streamReplicas });
  try {
    await restoreStreams(bus, folder);
  } finally {
    await bus.close();
  }
  const erased = await reapplyErasures(s);
  logger.info({ erased }, 'erasures re-applied from the ledger');
  return { manifest, erased };
}

const [command, folder] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !folder) {
  logger.fatal('usage: backup.js backup|restore <folder>');
  process.exit(64); // EX_USAGE
}
try {
  const result = command === 'backup' ? await backup(path.resolve(folder)) : await restore(path.resolve(folder));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  logger.fatal({ err }, `${command} failed`);
  process.exit(1);
}
// A listing of the folder for the operator: what the backup holds.
if (command === 'backup') logger.info({ files: (await readdir(path.resolve(folder))).sort() }, 'backup written');
