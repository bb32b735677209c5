import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Album, Conversation, ConversationMessage, FeedSession, Photo } from '@hoptrack/proto';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import { connectBus, createLogger } from '@hoptrack/runtime';
import { eventually, testDatabaseSuffix } from '@hoptrack/testing';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { findPersonalData, formatHits, storesOf } from '@hoptrack/testing/erasure-search';
import { commandFor } from '@hoptrack/testing/processes';
import { startLocalS3, type LocalS3 } from '@hoptrack/testing/s3';
import { pgBase, startStack, type Stack } from '@hoptrack/testing/stack';
import pg from 'pg';
import { PROCESSES } from '../build/catalogue';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 38, item 7: backup and restore, drilled. A stack with three people
 * (friends, sessions with likes and comments, messages, an album with a
 * processed photo) is backed up with the operators' tool (infra/ops/backup.ts,
 * what `make backup` runs) while it serves; then Cat deletes her account. The
 * backup is restored into an empty system (new databases, a new object store,
 * a new bus namespace) and a stack started on it:
 *
 * - every table's row count equals the backup's, but for the three rows the
 *   ledger's re-applied erasure of Cat changes in auth (her account, its
 *   erasure record and its user.deleted.v1);
 * - every stream holds as many messages as at the backup, and the object
 *   store as many objects;
 * - a sample of content reads the same through the gateway: Ann's feed (Cat's
 *   session gone), Ann and Ben's messages, Ann's album photo byte for byte;
 * - Cat stays deleted: her sign-in and token are refused, and no store of the
 *   restored stack holds her id, address or username once the erasure ran.
 *
 * The negative control: the same backup restored without the ledger (an
 * empty one) brings Cat back — she signs in.
 */
/** Every service database, each once (a worker shares its service's), as the backup tool reads them. */
const DATABASES = [...new Set(PROCESSES.flatMap((p) => (p.database ? [p.database] : [])))];
const suffix = `_bk${randomBytes(3).toString('hex')}${testDatabaseSuffix()}`;
const ledgerUrl = `${pgBase()}/hoptrack_erasure_ledger${suffix}`;
const emptyLedgerUrl = `${pgBase()}/hoptrack_erasure_ledger_empty${suffix}`;
const created: string[] = [];
const stacks: Stack[] = [];
const stores: LocalS3[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  for (const store of stores) await store.close().catch(() => undefined);
  const admin = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await admin.connect();
  for (const name of [...created, new URL(ledgerUrl).pathname.slice(1), new URL(emptyLedgerUrl).pathname.slice(1)]) {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  await admin.end();
});

/** The tool, as `make backup` / `make restore` run it, against one system's settings. */
function tool(args: string[], env: Record<string, string>): Promise<string> {
  const [node, ...rest] = commandFor('infra/ops/backup.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(node as string, [...rest, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`backup.js ${args.join(' ')} exited ${code}\n${out}\n${err}`))));
  });
}

/** What the tool reads for one system: the same settings the stack gave its processes. */
function settingsOf(system: { suffix: string; namespace: string; s3: string; ledger: string }): Record<string, string> {
  return {
    PG_URL: pgBase(),
    DATABASE_SUFFIX: system.suffix,
    BUS_NAMESPACE: system.namespace,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    S3_ENDPOINT: system.s3,
    ERASURE_LEDGER_URL: system.ledger,
  };
}

/** Every table's row count in every database of a system, `database.table` → rows. */
async function rowCounts(databaseSuffix: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const base of DATABASES) {
    const client = new pg.Client({ connectionString: `${pgBase()}/${base}${databaseSuffix}` });
    await client.connect();
    try {
      const tables = await client.query<{ t: string }>("SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1");
      for (const { t } of tables.rows) counts[`${base}.${t}`] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]?.n);
    } finally {
      await client.end();
    }
  }
  return counts;
}

async function streamCounts(namespace: string): Promise<Record<string, number>> {
  const bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'backup-test', namespace, logger: createLogger('backup-test', 'silent') });
  try {
    const counts: Record<string, number> = {};
    for (const stream of Object.keys(streams) as StreamName[]) {
      const info = await bus.jsm.streams.info(streamNameFor(namespace, stream)).catch(() => null);
      counts[stream] = info?.state.messages ?? 0;
    }
    return counts;
  } finally {
    await bus.close();
  }
}

const jpeg = (color: string) => sharp({ create: { width: 40, height: 30, channels: 3, background: color } }).jpeg().toBuffer();

interface Sample {
  annFeed: Array<{ id: string; title: string; likeCount: number; commentCount: number }>;
  annBenMessages: string[];
  annPhotoBytes: string;
}

async function sample(stack: Stack, ann: RegisteredUser, albumId: string, conversationPath: string): Promise<Sample> {
  const feed = (await expectApi(stack.baseUrl, ann.token, 'GET', '/api/sessions?filter=all')) as FeedSession[];
  const messages = (await expectApi(stack.baseUrl, ann.token, 'GET', conversationPath)) as ConversationMessage[];
  const [photo] = (await expectApi(stack.baseUrl, ann.token, 'GET', `/api/albums/${albumId}/photos`)) as Photo[];
  const bytes = Buffer.from(await (await fetch(new URL(String(photo?.url), stack.baseUrl))).arrayBuffer()).toString('base64');
  return {
    annFeed: feed.map((s) => ({ id: s.id, title: s.title, likeCount: s.likeCount, commentCount: s.commentCount })).sort((a, b) => a.id.localeCompare(b.id)),
    annBenMessages: messages.map((m) => m.content).sort(),
    annPhotoBytes: bytes,
  };
}

describe('make backup and make restore', () => {
  it('restores every count and the content into an empty system, and an account deleted after the backup stays deleted', { timeout: 600_000 }, async () => {
    // --- the live system -----------------------------------------------------------------
    const live = { suffix, namespace: `bk${randomBytes(4).toString('hex')}`, ledger: ledgerUrl };
    const stack = await startStack({ serveWeb: false, databaseSuffix: live.suffix, namespace: live.namespace, env: { ERASURE_LEDGER_URL: ledgerUrl, GATEWAY_RATE_LIMIT_MAX: '100000' } });
    stacks.push(stack);
    created.push(...storesOf(stack).databaseUrls.map((url) => new URL(url).pathname.slice(1)));
    const liveS3 = storesOf(stack).s3?.endpoint;
    if (!liveS3) throw new Error('the stack has no object store');

    const [ann, ben, cat] = await Promise.all([registerUser(stack.baseUrl, 'ann'), registerUser(stack.baseUrl, 'ben'), registerUser(stack.baseUrl, 'cat')]);
    if (!ann || !ben || !cat) throw new Error('people missing');
    await makeFriends(stack.baseUrl, ann, ben);
    await makeFriends(stack.baseUrl, ann, cat);
    const annSession = await logSessionViaApi(stack.baseUrl, ann, { title: 'Ann at the taproom', beerCount: '3', duration: '90' }, { buffer: await jpeg('#c81'), mimeType: 'image/jpeg', name: 'tap.jpg' });
    const catSession = await logSessionViaApi(stack.baseUrl, cat, { title: 'Cat on the terrace', beerCount: '2', duration: '60' });
    await eventually(async () => (await callApi(stack.baseUrl, ben.token, 'POST', `/api/sessions/${annSession.id}/like`)).status === 200, 'Ben can like Ann');
    await expectApi(stack.baseUrl, ben.token, 'POST', `/api/sessions/${annSession.id}/comments`, { content: 'Cheers Ann' }, 201);
    await eventually(async () => (await callApi(stack.baseUrl, ann.token, 'POST', `/api/sessions/${catSession.id}/like`)).status === 200, 'Ann can like Cat');
    await expectApi(stack.baseUrl, cat.token, 'POST', `/api/sessions/${annSession.id}/comments`, { content: 'Cat was here' }, 201);
    await expectApi(stack.baseUrl, ann.token, 'POST', '/api/messages', { toUserId: ben.id, content: 'Hi Ben' }, 201);
    await expectApi(stack.baseUrl, ben.token, 'POST', '/api/messages', { toUserId: ann.id, content: 'Hi Ann' }, 201);
    const conversation = (await expectApi(stack.baseUrl, ann.token, 'POST', '/api/conversations', { participantId: ben.id })) as Conversation;
    const conversationPath = `/api/conversations/${conversation.id}/messages`;
    const album = (await expectApi(stack.baseUrl, ann.token, 'POST', '/api/albums', { name: 'Taprooms' }, 201)) as Album;
    const form = new FormData();
    form.append('photos', new Blob([new Uint8Array(await jpeg('#3a6'))], { type: 'image/jpeg' }), 'flight.jpg');
    const upload = await fetch(`${stack.baseUrl}/api/albums/${album.id}/photos`, { method: 'POST', headers: { authorization: `Bearer ${ann.token}` }, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    await eventually(async () => ((await expectApi(stack.baseUrl, ann.token, 'GET', `/api/albums/${album.id}/photos`)) as Photo[])[0]?.status === 'ready', 'photo processed');
    // Cat's session is in Ann's feed before the backup (fan-out done), so the restore brings it back with her.
    await eventually(async () => JSON.stringify(await expectApi(stack.baseUrl, ann.token, 'GET', '/api/sessions?filter=all')).includes(catSession.id), "Cat's session in Ann's feed");

    // The system settles (every backlog handled) before counting, so the counts are the backup's.
    let before: Record<string, number> = {};
    await eventually(async () => {
      const a = await rowCounts(live.suffix);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      before = await rowCounts(live.suffix);
      return JSON.stringify(a) === JSON.stringify(before);
    }, 'the live system settled');
    const streamsBefore = await streamCounts(live.namespace);
    const sampleBefore = await sample(stack, ann, album.id, conversationPath);
    expect(sampleBefore.annFeed.map((s) => s.id)).toContain(catSession.id);

    const folder = await mkdtemp(path.join(tmpdir(), 'hoptrack-backup-'));
    const backup = JSON.parse((await tool(['backup', folder], settingsOf({ ...live, s3: liveS3 }))).trim().split('\n').at(-1) ?? '{}') as { objects: number; streams: Record<string, number> };
    console.log(`[figure] backup: ${Object.keys(before).length} tables, ${Object.values(before).reduce((a, b) => a + b, 0)} rows, ${backup.objects} objects, ${Object.values(backup.streams).reduce((a, b) => a + b, 0)} events`);
    expect(backup.streams).toEqual(streamsBefore);
    expect(await rowCounts(live.suffix), 'nothing changed while the backup was taken').toEqual(before);

    // After the backup, Cat deletes her account (answered once every service applied it).
    await expectApi(stack.baseUrl, cat.token, 'DELETE', '/api/me', { password: cat.password, confirm: 'DELETE' }, 200);
    await stack.stop();
    stacks.splice(stacks.indexOf(stack), 1);

    // --- the restore into an empty system ------------------------------------------------------
    const restoreInto = async (ledger: string) => {
      const target = { suffix: `${suffix}_r${randomBytes(2).toString('hex')}`, namespace: `rs${randomBytes(4).toString('hex')}`, ledger };
      const s3 = await startLocalS3({ port: 0, directory: await mkdtemp(path.join(tmpdir(), 'hoptrack-restore-s3-')) });
      stores.push(s3);
      created.push(...DATABASES.map((b) => `${b}${target.suffix}`));
      const out = JSON.parse((await tool(['restore', folder], settingsOf({ ...target, s3: s3.endpoint }))).trim().split('\n').at(-1) ?? '{}') as { erased: number };
      return { target, s3, erased: out.erased };
    };

    const restored = await restoreInto(ledgerUrl);
    expect(restored.erased, 'the ledger names Cat, whom the backup holds').toBe(1);
    const after = await rowCounts(restored.target.suffix);
    const changed = Object.fromEntries(Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]).map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]));
    console.log(`[figure] restore: tables differing from the backup ${JSON.stringify(changed)} (the ledger's erasure of Cat)`);
    // Auth erased Cat again: her account row went; an erasure record and its user.deleted.v1 came.
    expect(changed).toEqual({ 'hoptrack_auth.users': -1, 'hoptrack_auth.erasures': 1, 'hoptrack_auth.outbox': 1 });
    const streamsAfter = await streamCounts(restored.target.namespace);
    // The re-applied erasure published one user.deleted.v1 on top of what the backup held.
    expect(streamsAfter).toEqual({ ...streamsBefore, USERS: (streamsBefore.USERS ?? 0) + 1 });

    // --- the restored system serves ------------------------------------------------------------
    const previous = process.env.S3_ENDPOINT;
    process.env.S3_ENDPOINT = restored.s3.endpoint; // the stack takes an operator's store from the environment
    let back: Stack;
    try {
      back = await startStack({ serveWeb: false, databaseSuffix: restored.target.suffix, namespace: restored.target.namespace, env: { ERASURE_LEDGER_URL: ledgerUrl, GATEWAY_RATE_LIMIT_MAX: '100000' } });
    } finally {
      if (previous === undefined) delete process.env.S3_ENDPOINT;
      else process.env.S3_ENDPOINT = previous;
    }
    stacks.push(back);
    // Tokens stay valid across a restore (the signing keys are the deployment's, not the data's).
    await expect.poll(async () => (await callApi(back.baseUrl, cat.token, 'GET', '/api/me')).status, { message: 'Cat token refused' }).toBe(401);
    const login = await fetch(`${back.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: cat.email, password: cat.password }) });
    expect(login.status, 'Cat cannot sign in').toBe(401);
    // The content, once Cat's erasure reached every service: Ann's feed without Cat's session, the rest as it was.
    const expected: Sample = {
      ...sampleBefore,
      annFeed: sampleBefore.annFeed.filter((s) => s.id !== catSession.id).map((s) => (s.id === annSession.id ? { ...s, commentCount: s.commentCount - 1 } : s)),
    };
    await expect.poll(async () => sample(back, ann, album.id, conversationPath), { timeout: 120_000, interval: 500 }).toEqual(expected);
    let hits = await findPersonalData(back, [cat.id, cat.email, cat.username]);
    const started = Date.now();
    while (hits.length > 0 && Date.now() - started < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      hits = await findPersonalData(back, [cat.id, cat.email, cat.username]);
    }
    console.log(`[figure] restore: Cat resurrected 0 (sign-in 401), stores naming her ${hits.length} after ${Date.now() - started} ms`);
    expect(hits, formatHits(hits)).toEqual([]);
    await back.stop();
    stacks.splice(stacks.indexOf(back), 1);

    // --- the negative control: the same backup, restored with an empty ledger ---------------------
    const control = await restoreInto(emptyLedgerUrl);
    expect(control.erased).toBe(0);
    const controlAuth = new pg.Client({ connectionString: `${pgBase()}/hoptrack_auth${control.target.suffix}` });
    await controlAuth.connect();
    const catBack = (await controlAuth.query('SELECT 1 FROM users WHERE id = $1', [cat.id])).rowCount;
    await controlAuth.end();
    expect(catBack, 'without the ledger, Cat is back in auth').toBe(1);
    console.log(`[figure] restore without the ledger (control): Cat's account back (${catBack} row), erased 0`);
  });
});
