import { randomUUID } from 'node:crypto';
import type { Album, CurrentUser, FeedSession, Photo, StoredImageResponse, UploadUrlResponse } from '@hoptrack/proto';
import { FILES_PREFIX } from '@hoptrack/runtime';
import { Client as S3Client } from 'minio';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { eventually } from '@hoptrack/testing';
import { expectApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { tally } from '@hoptrack/testing/faults';
import { pendingWork, scrapeMetrics } from '@hoptrack/testing/metrics';
import { startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 38, item 6: object storage that fails. Three people upload album
 * photos (three files a request), log sessions with two photos and change
 * their profile pictures through the gateway while the thumbnail worker
 * renders; the stack's S3 server (s3rver) is SIGKILLed in the middle of it,
 * kept down while the uploads go on, and started again on its port and
 * folder. Every client sends what failed again (same Idempotency-Key) until
 * it is acknowledged. Then:
 *
 * - no answer was a 500 or another 5xx: an upload meeting the store down
 *   answers 503 (counted), before the kill none did;
 * - every acknowledged upload is there (album photos, sessions with their
 *   photos, the last profile picture), and no other;
 * - no row names an object the bucket lacks (media's photos, sessions'
 *   photos, auth's profile pictures, export zips), after recovery and again
 *   after the sweep (it must not take what a row names);
 * - every photo ends `ready` (thumbnail jobs waited out the outage);
 * - the objects no row names (uploads cut half-way, whose removal failed with
 *   the store gone; session photos stored for a create the outage failed;
 *   replaced profile pictures) are gone once the media worker's orphan sweep
 *   passed their grace (ORPHAN_GRACE_MS); session photos are judged by asking
 *   sessions, whose rows name them.
 *
 * Control: orphans put before the traffic (an original, a session photo) are
 * swept; one put at the end, younger than the grace, outlives two passes.
 */
const PEOPLE = 3;
const ROUNDS = 6;
const ALBUM_FILES = 3;
const SESSION_PHOTOS = 2;
/** The kill comes once this many uploads were acknowledged (about a third)... */
const KILL_AFTER_ACKS = 18;
/** ...and S3 comes back once each kind of upload was answered 503 this many times and OUTAGE_MIN_MS passed. */
const OUTAGE_MIN_503 = 3;
const KINDS = ['album photos', 'session', 'profile picture'];
const OUTAGE_MIN_MS = 3000;
/** Longer than anything from a kill to the orphan count below, so that count sees the orphans before any is swept. */
const GRACE_MS = 30_000;
const SWEEP_MS = 1000;
/** Swept folders (services/media/src/workers/orphans/owners.ts); `uploads/` holds session photos. */
const SWEPT = ['originals', 'thumbs', 'display', 'avatars', 'exports', 'uploads'];

let stack: Stack;
let s3Again: RunningProcess | null = null;
let people: RegisteredUser[] = [];
let albums: string[] = [];
let s3: S3Client;
let bucket: string;
let db: { media: pg.Pool; sessions: pg.Pool; auth: pg.Pool };
const startedAt = Date.now();
/** The control's old orphan: put before the traffic, so past the grace by the end. */
const oldOrphan = `originals/${randomUUID()}/${randomUUID()}`;
/** ...and a session photo of someone with no session: sessions names none of theirs. */
const oldSessionOrphan = `uploads/${randomUUID()}/${randomUUID()}.webp`;
const figures: string[] = [];

beforeAll(async () => {
  stack = await startStack({
    serveWeb: false,
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', ORPHAN_GRACE_MS: String(GRACE_MS), ORPHAN_SWEEP_MS: String(SWEEP_MS) },
  });
  const stores = storesOf(stack);
  if (!stack.s3 || !stores.s3) throw new Error('this test needs the stack to run its own S3 server (leave S3_ENDPOINT unset)');
  const endpoint = new URL(stores.s3.endpoint);
  s3 = new S3Client({ endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: false, accessKey: stores.s3.accessKey, secretKey: stores.s3.secretKey, region: stores.s3.region, pathStyle: true });
  const buckets = await s3.listBuckets();
  expect(buckets, 'media made its one bucket').toHaveLength(1);
  bucket = (buckets[0] as { name: string }).name;
  const pool = (name: string) => {
    const url = stores.databaseUrls.find((u) => new URL(u).pathname.startsWith(`/hoptrack_${name}`));
    if (!url) throw new Error(`no ${name} database in the stack`);
    return new pg.Pool({ connectionString: url, max: 2 });
  };
  db = { media: pool('media'), sessions: pool('sessions'), auth: pool('auth') };
  await s3.putObject(bucket, oldOrphan, Buffer.from('orphan'));
  await s3.putObject(bucket, oldSessionOrphan, Buffer.from('orphan'));
  people = await Promise.all(Array.from({ length: PEOPLE }, (_, i) => registerUser(stack.baseUrl, `s3fault${i}`)));
  albums = await Promise.all(people.map(async (me) => ((await expectApi(stack.baseUrl, me.token, 'POST', '/api/albums', { name: 'Outage' }, 201)) as Album).id));
});

afterAll(async () => {
  for (const line of figures) console.log(line);
  await s3Again?.stop();
  await Promise.all(Object.values(db ?? {}).map((p) => p.end()));
  await stack?.stop();
});

// ---------------------------------------------------------------- what the clients do

type Phase = 'before' | 'down' | 'after';
let phase: Phase = 'before';
const answers: Array<{ phase: Phase; status: number; what: string }> = [];
const acked = { photos: new Map<string, string[]>(), sessions: new Map<string, string[]>(), pictures: new Map<string, string>(), count: 0 };
let picturesAcked = 0;
/** Profile-picture links refused as used (409): an attempt stored the picture and lost its answer to the kill; a new link is asked for. */
let linksUsedUp = 0;
/** What happened when, printed should the test fail. */
const timeline: string[] = [];
const mark = (what: string) => timeline.push(`${new Date().toISOString()} ${what}`);

const images: Buffer[] = [];
const image = (i: number) => images[i % images.length] as Buffer;

/**
 * Sends `attempt` until it is acknowledged (2xx, or a status in `final`): a
 * 503 (or any 5xx, counted) is sent again after a pause, with the same
 * Idempotency-Key, as the web client does. Anything else fails the test.
 */
async function untilAcknowledged(what: string, attempt: (key: string) => Promise<Response>, final: number[] = []): Promise<Response> {
  const key = `s3-fault-${randomUUID()}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await attempt(key).catch(() => null);
    const status = res?.status ?? 599;
    answers.push({ phase, status, what });
    if (res && (status < 300 || final.includes(status))) return res;
    if (res && status < 500) throw new Error(`${what}: ${status} ${await res.text()}`);
    if (res && phase === 'after' && status >= 500) timeline.push(`${new Date().toISOString()} ${what} ${status} after the restart: ${await res.clone().text()}`);
    await res?.body?.cancel();
    if (Date.now() > deadline) throw new Error(`${what}: still ${status} after two minutes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const multipartPost = (me: RegisteredUser, path: string, form: FormData, key: string) =>
  fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${me.token}`, 'idempotency-key': key }, body: form });

async function albumUpload(me: RegisteredUser, albumId: string, round: number): Promise<void> {
  const res = await untilAcknowledged('album photos', (key) => {
    const form = new FormData();
    for (let f = 0; f < ALBUM_FILES; f++) form.append('photos', new Blob([new Uint8Array(image(round + f))], { type: 'image/jpeg' }), `r${round}-${f}.jpg`);
    return multipartPost(me, `/api/albums/${albumId}/photos`, form, key);
  });
  acked.photos.get(me.id)?.push(...((await res.json()) as Photo[]).map((p) => p.id));
  acked.count += 1;
}

async function sessionWithPhotos(me: RegisteredUser, round: number): Promise<void> {
  const res = await untilAcknowledged('session', (key) => {
    const form = new FormData();
    form.append('title', `Outage round ${round}`);
    for (let p = 0; p < SESSION_PHOTOS; p++) form.append('sessionPhoto', new Blob([new Uint8Array(image(round + p + 1))], { type: 'image/jpeg' }), `s${round}-${p}.jpg`);
    return multipartPost(me, '/api/sessions', form, key);
  });
  acked.sessions.get(me.id)?.push(((await res.json()) as FeedSession).id);
  acked.count += 1;
}

/** A link (no S3), the bytes on it (S3), then auth records it (no S3). */
async function profilePicture(me: RegisteredUser, round: number): Promise<void> {
  const bytes = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: (40 * round) % 256, g: 90, b: 160 } } }).png().toBuffer();
  for (;;) {
    const { uploadURL } = (await expectApi(stack.baseUrl, me.token, 'POST', '/api/profile-picture/upload')) as UploadUrlResponse;
    const put = () => fetch(new URL(uploadURL, stack.baseUrl), { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'image/png' } });
    const res = await untilAcknowledged('profile picture', put, [409]);
    if (res.status === 409) {
      // An attempt stored the picture and the kill cut its answer: the link is spent (the picture is an orphan).
      linksUsedUp += 1;
      continue;
    }
    const { url } = (await res.json()) as StoredImageResponse;
    await expectApi(stack.baseUrl, me.token, 'PUT', '/api/me/profile-picture', { profilePictureUrl: new URL(uploadURL, stack.baseUrl).pathname }, 200);
    acked.pictures.set(me.id, url);
    acked.count += 1;
    picturesAcked += 1;
    return;
  }
}

// ---------------------------------------------------------------- the bucket and the rows

/** Every object in the bucket. */
async function bucketKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const item of s3.listObjectsV2(bucket, '', true) as AsyncIterable<{ name?: string }>) if (item.name) keys.add(item.name);
  return keys;
}

/** The key a stored path names (`/api/media/files/<key>`, maybe signed). */
const keyOf = (path: string) => (path.startsWith(FILES_PREFIX) ? path.slice(FILES_PREFIX.length).split('?')[0] ?? '' : path);

/**
 * Every object key a row of this run's people names (the e2e databases
 * outlive a run; the bucket is new): media's photos (their columns, and a
 * photo's three keys by its id: a thumbnail is written just before its row
 * records it), export zips, sessions' photos, auth's profile pictures.
 * `columns`: what the rows' columns name, the keys that must exist.
 */
async function namedKeys(): Promise<{ all: Set<string>; columns: Set<string> }> {
  const ids = people.map((p) => p.id);
  const photos = await db.media.query<{ id: string; user_id: string; filename: string; url: string | null; thumbnail_key: string | null }>(
    'SELECT id, user_id, filename, url, thumbnail_key FROM photos WHERE user_id = ANY($1::uuid[])',
    [ids],
  );
  const exports = await db.media.query<{ key: string }>('SELECT key FROM export_assemblies WHERE key IS NOT NULL AND user_id = ANY($1::uuid[])', [ids]);
  const sessions = await db.sessions.query<{ photos: string[]; photo: string | null }>('SELECT photos, photo FROM beer_sessions WHERE user_id = ANY($1::uuid[])', [ids]);
  const pictures = await db.auth.query<{ profile_picture: string }>('SELECT profile_picture FROM users WHERE profile_picture IS NOT NULL AND id = ANY($1::uuid[])', [ids]);
  const columns = new Set<string>([
    ...photos.rows.flatMap((p) => [p.filename, p.url, p.thumbnail_key].filter((k): k is string => !!k)),
    ...exports.rows.map((e) => e.key),
    ...sessions.rows.flatMap((s) => [...s.photos, ...(s.photo ? [s.photo] : [])].map(keyOf)),
    ...pictures.rows.map((u) => keyOf(u.profile_picture)),
  ]);
  const all = new Set([...columns, ...photos.rows.flatMap((p) => [`thumbs/${p.user_id}/${p.id}.webp`, `display/${p.user_id}/${p.id}.webp`])]);
  return { all, columns };
}

/** Rows naming an object the bucket lacks, and objects no row names (by folder). */
async function audit(): Promise<{ missing: string[]; orphans: Record<string, string[]> }> {
  const [named, objects] = await Promise.all([namedKeys(), bucketKeys()]);
  const missing = [...named.columns].filter((key) => !objects.has(key));
  const orphans: Record<string, string[]> = {};
  for (const key of objects) if (!named.all.has(key)) (orphans[key.split('/')[0] ?? ''] ??= []).push(key);
  return { missing, orphans };
}
const sweptOrphans = (orphans: Record<string, string[]>) => SWEPT.flatMap((folder) => orphans[folder] ?? []);
const counts = (orphans: Record<string, string[]>) =>
  Object.entries(orphans)
    .filter(([, keys]) => keys.length > 0)
    .map(([folder, keys]) => `${folder} ${keys.length}`)
    .join(', ') || 'none';

/** The media worker's sweep counters: passes that ended well, objects swept. */
async function sweepMetrics(): Promise<{ passes: number; swept: number }> {
  const series = await scrapeMetrics(stack.services['media-worker'].url);
  const sum = (name: string, labels = '') => series.filter((s) => s.name === name && s.labels.includes(labels)).reduce((n, s) => n + s.value, 0);
  return { passes: sum('media_orphan_sweeps_total', 'outcome="ok"'), swept: sum('media_orphans_swept_total') };
}

// ---------------------------------------------------------------- the test

describe('object storage stopped in the middle of uploads and thumbnailing', () => {
  it('answers 503, loses no acknowledged upload, leaves no row without its object, and no orphan once swept', { timeout: 300_000 }, async () => {
    onTestFailed(() => {
      const tail = (proc: RunningProcess | null | undefined) => (proc ? [`--- ${proc.name}`, ...proc.lines.slice(-15)] : []);
      const statuses = new Map<string, number>();
      for (const a of answers) statuses.set(`${a.phase} ${a.what} ${a.status}`, (statuses.get(`${a.phase} ${a.what} ${a.status}`) ?? 0) + 1);
      console.log([...timeline, ...[...statuses].map(([k, n]) => `${k}: ${n}`), ...tail(stack.s3), ...tail(s3Again), ...tail(stack.services.media), ...tail(stack.services['media-worker'])].join('\n'));
    });
    for (let i = 0; i < 6; i++) {
      images.push(await sharp({ create: { width: 320 + 16 * i, height: 240, channels: 3, background: { r: 30 * i, g: 140, b: 60 } } }).jpeg().toBuffer());
    }
    for (const me of people) {
      acked.photos.set(me.id, []);
      acked.sessions.set(me.id, []);
    }

    const trafficStartedAt = Date.now();
    // The traffic: each person uploads album photos, logs sessions with photos and changes their
    // profile picture, each kind one after another (as a browser tab would), the three side by side;
    // each goes on until the store is back (so every kind meets the outage), ROUNDS times at least.
    const traffic = people.flatMap((me, i) =>
      [(round: number) => albumUpload(me, albums[i] as string, round), (round: number) => sessionWithPhotos(me, round), (round: number) => profilePicture(me, round)].map(async (upload) => {
        for (let round = 0; round < ROUNDS || phase !== 'after'; round++) await upload(round);
      }),
    );

    // The fault, in the middle of it.
    const fault = (async () => {
      await eventually(() => acked.count >= KILL_AFTER_ACKS, `${KILL_AFTER_ACKS} uploads acknowledged`, 120_000);
      const s3Process = stack.s3 as RunningProcess;
      // Answers from here on are the outage's (those cut by the kill itself included).
      phase = 'down';
      const killedAt = Date.now();
      mark(`killing S3 at ${acked.count} acknowledged`);
      await s3Process.stop('SIGKILL');
      mark('S3 killed');
      const processing = (await db.media.query<{ n: number }>(`SELECT count(*)::int AS n FROM photos WHERE status = 'processing' AND user_id = ANY($1::uuid[])`, [people.map((p) => p.id)])).rows[0]?.n ?? 0;
      await eventually(
        () => KINDS.every((what) => answers.filter((a) => a.phase === 'down' && a.status === 503 && a.what === what).length >= OUTAGE_MIN_503) && Date.now() - killedAt >= OUTAGE_MIN_MS,
        `${OUTAGE_MIN_503} answers 503 of each kind during the outage`,
        60_000,
      );
      mark('starting S3 again');
      s3Again = await startProcess(s3Process.options);
      phase = 'after';
      mark('S3 ready again');
      return { killedAt, outageMs: Date.now() - killedAt, processing };
    })();

    const [outage] = await Promise.all([fault, ...traffic]);
    const trafficDoneAt = Date.now();

    // The answers: 503 while the store was down; no 500, no other 5xx, no connection lost.
    const of = (p: Phase | null, test: (status: number) => boolean) => answers.filter((a) => (p === null || a.phase === p) && test(a.status)).length;
    const outageAnswers = answers.filter((a) => a.phase === 'down');
    const byKind = (list: typeof answers) => KINDS.map((what) => `${what} ${list.filter((a) => a.what === what && a.status === 503).length}`).join(', ');
    figures.push(
      `[figure] object storage: uploads acknowledged ${acked.count} (${[...acked.photos.values()].flat().length} album photos in uploads of ${ALBUM_FILES}, ${[...acked.sessions.values()].flat().length} sessions with ${SESSION_PHOTOS} photos, ${picturesAcked} profile pictures); ` +
        `S3 down ${outage.outageMs} ms, ${outage.processing} photos processing at the kill; answers while down ${outageAnswers.length}: 503 ${of('down', (s) => s === 503)} (${byKind(outageAnswers)}), ` +
        `2xx ${of('down', (s) => s < 300)}; after: 503 ${of('after', (s) => s === 503)}; in all 500 ${of(null, (s) => s === 500)}, other 5xx ${of(null, (s) => s > 500 && s !== 503)}, ` +
        `no answer ${of(null, (s) => s === 599)}; profile-picture links spent by a cut answer ${linksUsedUp}`,
    );
    expect(of('before', (s) => s >= 500), 'no 5xx before the kill').toBe(0);
    expect(of('down', (s) => s === 503), 'the outage met uploads').toBeGreaterThanOrEqual(OUTAGE_MIN_503 * KINDS.length);
    expect(of(null, (s) => s >= 500 && s !== 503), `5xx other than 503: ${JSON.stringify(answers.filter((a) => a.status >= 500 && a.status !== 503))}`).toBe(0);

    // Right after the traffic, before the orphans of the kill are past the grace (unless the machine
    // is very slow: the figure says when): what the bucket and the rows say.
    const before = await audit();
    const auditedAt = Date.now();
    // The control's orphan is counted apart (below).
    before.orphans.originals = (before.orphans.originals ?? []).filter((key) => key !== oldOrphan);
    before.orphans.uploads = (before.orphans.uploads ?? []).filter((key) => key !== oldSessionOrphan);
    expect(before.missing, 'rows naming a missing object, after recovery').toEqual([]);

    // Every acknowledged upload is there, and nothing else.
    for (const [i, me] of people.entries()) {
      const photos = (await expectApi(stack.baseUrl, me.token, 'GET', `/api/albums/${albums[i]}/photos`, undefined, 200)) as Photo[];
      expect(tally(acked.photos.get(me.id) ?? [], photos.map((p) => p.id)), 'album photos').toEqual({ ok: acked.photos.get(me.id)?.length, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
      const sessions = (await expectApi(stack.baseUrl, me.token, 'GET', '/api/me/sessions?limit=50', undefined, 200)) as FeedSession[];
      expect(tally(acked.sessions.get(me.id) ?? [], sessions.map((s) => s.id)), 'sessions').toEqual({ ok: acked.sessions.get(me.id)?.length, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
      for (const session of sessions) expect(session.photos, `session ${session.id} keeps its photos`).toHaveLength(SESSION_PHOTOS);
      expect(((await expectApi(stack.baseUrl, me.token, 'GET', '/api/me', undefined, 200)) as CurrentUser).profilePicture).toBe(acked.pictures.get(me.id));
    }

    // The thumbnails of every photo, the ones the outage held up included.
    const ours = [people.map((p) => p.id)];
    await eventually(async () => (await db.media.query(`SELECT 1 FROM photos WHERE status <> 'ready' AND user_id = ANY($1::uuid[])`, ours)).rowCount === 0, 'every photo ready', 120_000);
    const photosReady = (await db.media.query<{ n: number }>(`SELECT count(*)::int AS n FROM photos WHERE status = 'ready' AND user_id = ANY($1::uuid[])`, ours)).rows[0]?.n ?? 0;
    const photosAcked = [...acked.photos.values()].flat().length;
    expect(photosReady).toBe(photosAcked);
    const workers = Object.values(stack.instances).flat();
    await eventually(async () => (await pendingWork(workers)).length === 0, 'every outbox, consumer and queue drained', 60_000);

    // The sweep: once the kill's orphans are past the grace, none is left in the swept folders.
    await eventually(async () => sweptOrphans((await audit()).orphans).length === 0, 'the orphans swept', GRACE_MS + 60_000);
    const after = await audit();
    expect(after.missing, 'rows naming a missing object, after the sweep').toEqual([]);
    const sweep = await sweepMetrics();
    expect(sweep.swept, 'the sweep deleted what the outage and replaced pictures left').toBeGreaterThanOrEqual(sweptOrphans(before.orphans).length);

    // Control: the orphan put before the traffic is gone; one put now, younger than the grace, outlives two passes.
    expect(await s3.statObject(bucket, oldOrphan).then(() => true, () => false), 'the old orphan swept').toBe(false);
    expect(await s3.statObject(bucket, oldSessionOrphan).then(() => true, () => false), 'the old session-photo orphan swept').toBe(false);
    const youngOrphan = `originals/${randomUUID()}/${randomUUID()}`;
    await s3.putObject(bucket, youngOrphan, Buffer.from('young'));
    const passes = (await sweepMetrics()).passes;
    await eventually(async () => (await sweepMetrics()).passes >= passes + 2, 'two more passes of the sweep', 30_000);
    const youngKept = await s3.statObject(bucket, youngOrphan).then(() => true, () => false);
    expect(youngKept, 'an object younger than the grace is never swept').toBe(true);

    figures.push(
      `[figure] object storage: rows pointing at missing objects ${before.missing.length} after recovery, ${after.missing.length} after the sweep; ` +
        `photos ready ${photosReady} of ${photosAcked}; orphans before the sweep: ${counts(before.orphans)} (counted ${Math.round((auditedAt - outage.killedAt) / 1000)} s after the kill, grace ${GRACE_MS / 1000} s); ` +
        `after: ${counts(after.orphans)}; swept in all ${sweep.swept}; ` +
        `control: old orphan swept, young orphan kept after 2 passes ${youngKept ? 'yes' : 'NO'}; traffic ${Math.round((trafficDoneAt - trafficStartedAt) / 1000)} s, file ${Math.round((Date.now() - startedAt) / 1000)} s`,
    );
  });
});
