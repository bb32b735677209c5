import { streamNameFor } from '@hoptrack/proto';
import { uuidsInBytes } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import { Client as S3Client } from 'minio';
import { connect, type NatsConnection, type StoredMsg } from 'nats';
import pg from 'pg';
import { BENCH_NAMESPACES, DEV_NAMESPACE, isKeyOf, type Stack } from './stack';

/**
 * Issue 24's proof: after an account is deleted and erased, nothing of the
 * person is left anywhere the stack keeps data. `findPersonalData` searches
 * every store of a running stack, case-insensitively, for each needle (the
 * person's id, e-mail, username):
 *
 * - every Postgres database the stack's processes were given (DATABASE_URL),
 *   every table of every non-system schema but the migrator's bookkeeping
 *   (`_prisma_migrations`), by its whole row as text;
 * - every Redis database the stack uses (REDIS_URL's db, and the timelines'
 *   TIMELINE_REDIS_URL when it is another): every key, by its
 *   name and its value whatever the type (string, hash fields and values,
 *   list, set, sorted-set members, stream entries);
 * - every JetStream stream of the stack's bus namespace (each message's
 *   subject, headers and data, read by sequence number: no consumer is
 *   created) and every KV / object-store bucket on the server;
 * - every object of every bucket of the stack's S3 endpoint: its key, its
 *   metadata, and its body when it is text or JSON under 1 MB.
 *
 * Everything is derived from the stack itself (the environment its
 * processes were started with), so nothing needs to be passed besides it.
 * A one-way hash of an id (the services' `erased_people` tombstones) is not
 * a hit: the search looks for the raw values.
 */

export type Store = 'postgres' | 'redis' | 'jetstream' | 'kv' | 's3';

export interface Hit {
  store: Store;
  /** The database and table, the Redis key, the stream (and sequence), the bucket and object key. */
  place: string;
  /** What matched there: a column, `key name`, a hash field, `subject`, a header, `data`, `metadata`, `body`. */
  where: string;
  needle: string;
  /** A short piece of the text around the match. */
  excerpt: string;
}

/** Where a stack keeps its data: read from the environment its processes were started with. */
export interface StackStores {
  namespace: string;
  databaseUrls: string[];
  /** REDIS_URL's, then every other Redis a process was given (the timelines' TIMELINE_REDIS_URL). */
  redisUrls: string[];
  natsUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; region: string } | null;
}

export function storesOf(stack: Pick<Stack, 'instances'>): StackStores {
  const envs = Object.values(stack.instances)
    .flat()
    .map((proc) => proc.options.env);
  const first = (name: string): string | undefined => envs.map((env) => env[name]).find((value) => value !== undefined && value !== '');
  const namespace = first('BUS_NAMESPACE');
  if (!namespace) throw new Error('the stack gave its processes no BUS_NAMESPACE');
  const databaseUrls = [...new Set(envs.map((env) => env.DATABASE_URL).filter((url): url is string => !!url))].sort();
  const s3Endpoint = first('S3_ENDPOINT');
  return {
    namespace,
    databaseUrls,
    redisUrls: [
      ...new Set([first('REDIS_URL') ?? 'redis://127.0.0.1:6379', ...envs.map((env) => env.TIMELINE_REDIS_URL).filter((url): url is string => !!url)]),
    ],
    natsUrl: first('NATS_URL') ?? 'nats://127.0.0.1:4222',
    s3: s3Endpoint
      ? {
          endpoint: s3Endpoint,
          // The media service's defaults (s3rver's credentials), unless the stack set them.
          accessKey: first('S3_ACCESS_KEY') ?? process.env.S3_ACCESS_KEY ?? 'S3RVER',
          secretKey: first('S3_SECRET_KEY') ?? process.env.S3_SECRET_KEY ?? 'S3RVER',
          region: first('S3_REGION') ?? process.env.S3_REGION ?? 'us-east-1',
        }
      : null,
  };
}

export interface SearchOptions {
  /** Search only these stores (all by default). */
  stores?: Store[];
  /** Object bodies larger than this are not read (1 MB by default). */
  maxBodyBytes?: number;
}

/** Every place in the stack's stores where one of `needles` occurs (case-insensitively). */
export async function findPersonalData(stack: Pick<Stack, 'instances'> | StackStores, needles: string[], options: SearchOptions = {}): Promise<Hit[]> {
  const stores = 'instances' in stack ? storesOf(stack) : stack;
  const wanted = [...new Set(needles.map((n) => n.trim()).filter((n) => n.length > 0))];
  if (wanted.length === 0) throw new Error('findPersonalData: no needles');
  const which = new Set<Store>(options.stores ?? ['postgres', 'redis', 'jetstream', 'kv', 's3']);
  const matcher = new Matcher(wanted);
  const searches: Array<Promise<Hit[]>> = [];
  if (which.has('postgres')) searches.push(searchPostgres(stores.databaseUrls, matcher));
  // A key of another Redis than REDIS_URL's is named with its URL first (`redis://…/7 key`).
  if (which.has('redis')) searches.push(...stores.redisUrls.map((url, i) => searchRedis(url, matcher, i === 0 ? '' : `${url} `, stores.namespace)));
  if (which.has('jetstream') || which.has('kv')) searches.push(searchNats(stores, matcher, which));
  if (which.has('s3') && stores.s3) searches.push(searchS3(stores.s3, matcher, options.maxBodyBytes ?? 1024 * 1024));
  const hits = (await Promise.all(searches)).flat();
  return hits.sort((a, b) => a.store.localeCompare(b.store) || a.place.localeCompare(b.place) || a.where.localeCompare(b.where));
}

/** Hits per store (and the distinct places per store), for a summary figure. */
export function countHits(hits: Hit[]): Record<Store, { hits: number; places: number }> {
  const counts = {} as Record<Store, { hits: number; places: number }>;
  for (const store of ['postgres', 'redis', 'jetstream', 'kv', 's3'] as Store[]) {
    const mine = hits.filter((h) => h.store === store);
    counts[store] = { hits: mine.length, places: new Set(mine.map((h) => h.place)).size };
  }
  return counts;
}

/**
 * The hits as a failure message can show them: grouped by store and place
 * (a database table, a Redis key, a stream, a bucket), each with what matched.
 */
export function formatHits(hits: Hit[], maxLinesPerPlace = 3): string {
  if (hits.length === 0) return 'no personal data found';
  const lines: string[] = [`${hits.length} hit(s) of personal data:`];
  const byStore = groupBy(hits, (h) => h.store);
  for (const [store, inStore] of byStore) {
    lines.push(`  ${store}: ${inStore.length} hit(s) in ${new Set(inStore.map((h) => h.place)).size} place(s)`);
    for (const [place, inPlace] of groupBy(inStore, (h) => h.place)) {
      lines.push(`    ${place} (${inPlace.length})`);
      for (const hit of inPlace.slice(0, maxLinesPerPlace)) lines.push(`      ${hit.where} ~ ${hit.needle}: ${hit.excerpt}`);
      if (inPlace.length > maxLinesPerPlace) lines.push(`      … ${inPlace.length - maxLinesPerPlace} more`);
    }
  }
  return lines.join('\n');
}

/** One line per place, for a report ('store place: n'). */
export function placesOf(hits: Hit[]): string[] {
  return [...groupBy(hits, (h) => `${h.store} ${h.place}`)].map(([place, inPlace]) => `${place}: ${inPlace.length}`);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

// ---------------------------------------------------------------- matching

class Matcher {
  private readonly lowered: Array<{ needle: string; lower: string }>;

  constructor(needles: string[]) {
    this.lowered = needles.map((needle) => ({ needle, lower: needle.toLowerCase() }));
  }

  get needles(): string[] {
    return this.lowered.map((n) => n.needle);
  }

  /** The needles `text` holds, each with an excerpt around its first occurrence. */
  find(text: string): Array<{ needle: string; excerpt: string }> {
    if (!text) return [];
    const lower = text.toLowerCase();
    const found: Array<{ needle: string; excerpt: string }> = [];
    for (const { needle, lower: l } of this.lowered) {
      const at = lower.indexOf(l);
      if (at >= 0) found.push({ needle, excerpt: excerpt(text, at, l.length) });
    }
    return found;
  }
}

const EXCERPT_SIDE = 40;

function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - EXCERPT_SIDE);
  const end = Math.min(text.length, at + length + EXCERPT_SIDE);
  const piece = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${piece}${end < text.length ? '…' : ''}`;
}

/** Text of bytes that may not be UTF-8: printable runs kept, the rest as '.'. */
function bytesToText(bytes: Buffer | Uint8Array): string {
  const text = Buffer.from(bytes).toString('utf8');
  return text.replace(/[\u0000-\u0008\u000e-\u001f\ufffd]/g, '.');
}

// ---------------------------------------------------------------- Postgres

/** The migrator's bookkeeping (names of migrations, checksums): no data of anyone. */
const BOOKKEEPING = /^_.*migrations$|^_?migrations$/i;
/** Rows fetched per table for excerpts; the count is exact. */
const ROWS_PER_TABLE = 50;

async function searchPostgres(databaseUrls: string[], matcher: Matcher): Promise<Hit[]> {
  const perDatabase = await Promise.all(databaseUrls.map((url) => searchDatabase(url, matcher)));
  return perDatabase.flat();
}

async function searchDatabase(url: string, matcher: Matcher): Promise<Hit[]> {
  const database = new URL(url).pathname.replace(/^\//, '');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const hits: Hit[] = [];
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%'
        ORDER BY 1, 2`,
    );
    // One pattern per needle, LIKE's wildcards escaped: '_' in a username is a character, not "any".
    const patterns = matcher.needles.map((n) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    for (const { schema, name } of tables.rows) {
      if (BOOKKEEPING.test(name)) continue;
      const table = `${quoteIdent(schema)}.${quoteIdent(name)}`;
      const place = `${database}.${schema === 'public' ? '' : `${schema}.`}${name}`;
      const found = await client.query<{ row: Record<string, unknown>; total: string }>(
        `SELECT row_to_json(t) AS row, count(*) OVER () AS total FROM ${table} t WHERE t::text ILIKE ANY($1::text[]) LIMIT ${ROWS_PER_TABLE}`,
        [patterns],
      );
      for (const { row } of found.rows) {
        // Name the columns that hold a needle (a row matched as a whole; say where).
        let named = false;
        for (const [column, value] of Object.entries(row)) {
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          for (const match of matcher.find(text ?? '')) {
            named = true;
            hits.push({ store: 'postgres', place, where: `column ${column}`, needle: match.needle, excerpt: `${rowLabel(row)} ${match.excerpt}` });
          }
        }
        if (!named) {
          // The row's text form matched but no single column's JSON did (a composite or array rendering): report the row.
          for (const match of matcher.find(JSON.stringify(row))) hits.push({ store: 'postgres', place, where: 'row', needle: match.needle, excerpt: match.excerpt });
        }
      }
      const total = Number(found.rows[0]?.total ?? 0);
      if (total > found.rows.length) {
        hits.push({ store: 'postgres', place, where: 'more rows', needle: matcher.needles.join('|'), excerpt: `${total - found.rows.length} more matching row(s) not shown` });
      }
    }
  } finally {
    await client.end();
  }
  return hits;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A row's id (or first column) to tell rows apart in a listing. */
function rowLabel(row: Record<string, unknown>): string {
  const id = row.id ?? row.event_id ?? Object.values(row)[0];
  return `[${Object.keys(row).includes('id') ? 'id' : Object.keys(row)[0]}=${String(id).slice(0, 40)}]`;
}

// ---------------------------------------------------------------- Redis

/**
 * Other stacks that share a developer's or CI's Redis: the benchmarks' (`bench`, `benchsmoke`) and `make dev`'s
 * (`hoptrack`), each with thousands of people's timelines. Their keys' names are searched like any other, but their
 * values are not read: a run left behind made one search read 182,000 keys (84 s) for needles unique to this run.
 */
const OTHER_STACKS = [...Object.values(BENCH_NAMESPACES), DEV_NAMESPACE];
const ofOtherStack = (key: string, namespace: string) => OTHER_STACKS.some((other) => other !== namespace && isKeyOf(other, key));

async function searchRedis(redisUrl: string, matcher: Matcher, label: string, namespace: string): Promise<Hit[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true });
  await redis.connect();
  const hits: Hit[] = [];
  const add = (key: string, where: string, text: string) => {
    for (const match of matcher.find(text)) hits.push({ store: 'redis', place: `${label}${key}`, where, needle: match.needle, excerpt: match.excerpt });
  };
  try {
    // The whole database (the stack's keys all start with its namespace; anything else naming the
    // person would be a leak just the same, and a needle unique to this run cannot match others' keys).
    let cursor = '0';
    const keys: string[] = [];
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    const all = [...new Set(keys)];
    for (const key of all) if (ofOtherStack(key, namespace)) add(key, 'key name', key);
    const unique = all.filter((key) => !ofOtherStack(key, namespace));
    const types = await pipelined(redis, unique, (p, key) => p.type(key));
    for (let i = 0; i < unique.length; i += 200) {
      const slice = unique.slice(i, i + 200);
      const pipeline = redis.pipeline();
      for (const [j, key] of slice.entries()) {
        const type = types[i + j];
        if (type === 'string') pipeline.getBuffer(key);
        else if (type === 'hash') pipeline.hgetallBuffer(key);
        else if (type === 'list') pipeline.lrangeBuffer(key, 0, -1);
        else if (type === 'set') pipeline.smembersBuffer(key);
        else if (type === 'zset') pipeline.zrangeBuffer(key, 0, -1, 'WITHSCORES');
        else if (type === 'stream') pipeline.xrangeBuffer(key, '-', '+');
        else pipeline.echo(`(type ${String(type)})`);
      }
      const answers = (await pipeline.exec()) ?? [];
      for (const [j, key] of slice.entries()) {
        add(key, 'key name', key);
        const [err, value] = answers[j] ?? [null, null];
        if (err || value === null || value === undefined) continue; // gone between SCAN and read
        const type = types[i + j];
        if (type === 'string') add(key, 'value', bytesToText(value as Buffer));
        else if (type === 'hash') {
          for (const [field, fieldValue] of Object.entries(value as Record<string, Buffer>)) {
            add(key, `hash field ${field.slice(0, 60)}`, field);
            add(key, `hash value of ${field.slice(0, 60)}`, bytesToText(fieldValue));
          }
        } else if (type === 'list' || type === 'set') {
          for (const member of value as Buffer[]) add(key, `${type} member`, bytesToText(member));
        } else if (type === 'zset') {
          const flat = value as Buffer[];
          for (let m = 0; m < flat.length; m += 2) {
            const member = flat[m] as Buffer;
            add(key, 'zset member', bytesToText(member));
            // Timeline members carry ids as their 16 bytes (session, author): searched as uuids too.
            if (member.length % 16 === 0) add(key, 'zset member (16-byte ids)', uuidsInBytes(member).join(' '));
          }
        } else if (type === 'stream') {
          for (const [entryId, fields] of value as Array<[Buffer, Buffer[]]>) {
            add(key, `stream entry ${bytesToText(entryId)}`, fields.map(bytesToText).join(' '));
          }
        }
      }
    }
  } finally {
    redis.disconnect();
  }
  return hits;
}

async function pipelined<T>(redis: Redis, keys: string[], command: (p: ReturnType<Redis['pipeline']>, key: string) => unknown): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const pipeline = redis.pipeline();
    for (const key of keys.slice(i, i + 500)) command(pipeline, key);
    for (const [err, value] of (await pipeline.exec()) ?? []) results.push((err ? null : value) as T);
  }
  return results;
}

// ---------------------------------------------------------------- JetStream

/** JetStream's answer for a sequence number that holds no message (deleted, or a gap). */
const NO_MESSAGE_FOUND = 10037;

async function searchNats(stores: StackStores, matcher: Matcher, which: Set<Store>): Promise<Hit[]> {
  const nc = await connect({ servers: stores.natsUrl.split(','), name: 'erasure-search' });
  try {
    const jsm = await nc.jetstreamManager();
    // The namespace's streams: their names start with what streamNameFor puts before the stream's own.
    const prefix = streamNameFor(stores.namespace, 'USERS').replace(/USERS$/, '');
    const names: string[] = [];
    for await (const name of jsm.streams.names()) names.push(name);
    const hits: Hit[] = [];
    for (const name of names.sort()) {
      // KV buckets and object stores are streams named KV_<bucket> and OBJ_<bucket>; every one on the server is read.
      const kind: Store | null = name.startsWith(prefix) ? 'jetstream' : /^(KV|OBJ)_/.test(name) ? 'kv' : null;
      if (!kind || !which.has(kind)) continue;
      hits.push(...(await searchStream(nc, name, kind, matcher)));
    }
    return hits;
  } finally {
    await nc.close();
  }
}

async function searchStream(nc: NatsConnection, stream: string, store: Store, matcher: Matcher): Promise<Hit[]> {
  const jsm = await nc.jetstreamManager();
  const hits: Hit[] = [];
  // Another test's stack may delete its streams (and object stores) while this one reads the server's.
  const info = await jsm.streams.info(stream).catch((err: unknown) => {
    if (isStreamGone(err)) return null;
    throw err;
  });
  if (!info) return hits;
  const { state } = info;
  if (state.messages === 0) return hits;
  const seqs: number[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq; seq++) seqs.push(seq);
  // A few requests in flight at a time: a stream of a few thousand messages reads in a second.
  const CONCURRENCY = 16;
  for (let i = 0; i < seqs.length; i += CONCURRENCY) {
    const batch = await Promise.all(seqs.slice(i, i + CONCURRENCY).map((seq) => storedMessage(jsm, stream, seq)));
    for (const stored of batch) {
      if (!stored) continue;
      const place = `${stream}#${stored.seq}`;
      const add = (where: string, text: string) => {
        for (const match of matcher.find(text)) hits.push({ store, place, where, needle: match.needle, excerpt: match.excerpt });
      };
      add('subject', stored.subject);
      if (stored.header) for (const [key, values] of stored.header) add(`header ${key}`, values.join(', '));
      add('data', bytesToText(stored.data));
    }
  }
  return hits;
}

/** The stream itself was deleted (a test's stack tearing down): nothing left to read in it. */
const isStreamGone = (err: unknown): boolean => /stream not found/i.test(String((err as Error | undefined)?.message ?? err));

async function storedMessage(jsm: Awaited<ReturnType<NatsConnection['jetstreamManager']>>, stream: string, seq: number, attempts = 5): Promise<StoredMsg | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await jsm.streams.getMessage(stream, { seq });
    } catch (err) {
      const apiError = (err as { api_error?: { err_code?: number } }).api_error;
      if (apiError?.err_code === NO_MESSAGE_FOUND) return null;
      // A message deleted between the info and the read also answers 'no message found' by text on some servers.
      if (/no message found/i.test(String((err as Error).message))) return null;
      if (isStreamGone(err)) return null;
      if (attempt >= attempts) throw err;
    }
  }
}

// ---------------------------------------------------------------- S3

const TEXTUAL = /^(text\/|application\/(json|xml|x-ndjson|ld\+json|javascript)|.*\+json)/i;

async function searchS3(s3: NonNullable<StackStores['s3']>, matcher: Matcher, maxBodyBytes: number): Promise<Hit[]> {
  const url = new URL(s3.endpoint);
  const client = new S3Client({
    endPoint: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    useSSL: url.protocol === 'https:',
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: s3.region,
    pathStyle: true,
  });
  const hits: Hit[] = [];
  for (const bucket of await client.listBuckets()) {
    const objects: string[] = [];
    for await (const item of client.listObjectsV2(bucket.name, '', true) as AsyncIterable<{ name?: string }>) if (item.name) objects.push(item.name);
    for (const key of objects) {
      const place = `${bucket.name}/${key}`;
      const add = (where: string, text: string) => {
        for (const match of matcher.find(text)) hits.push({ store: 's3', place, where, needle: match.needle, excerpt: match.excerpt });
      };
      add('key', key);
      let stat;
      try {
        stat = await client.statObject(bucket.name, key);
      } catch {
        continue; // deleted between the listing and the look
      }
      for (const [name, value] of Object.entries(stat.metaData ?? {})) add(`metadata ${name}`, `${name}: ${String(value)}`);
      const contentType = String((stat.metaData as Record<string, unknown> | undefined)?.['content-type'] ?? '');
      if (stat.size <= maxBodyBytes && (TEXTUAL.test(contentType) || contentType === '' || contentType === 'binary/octet-stream')) {
        try {
          const body = await readAll(await client.getObject(bucket.name, key));
          // An untyped object is read only if it looks like text (no NUL in its first KB).
          if (TEXTUAL.test(contentType) || !body.subarray(0, 1024).includes(0)) add('body', bytesToText(body));
        } catch {
          // Deleted meanwhile.
        }
      }
    }
  }
  return hits;
}

async function readAll(stream: AsyncIterable<Buffer | Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
