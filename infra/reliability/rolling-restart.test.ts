import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, makeFriends, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { startEdge, type Edge } from '@hoptrack/testing/edge';
import { pendingWork, scrapeMetrics } from '@hoptrack/testing/metrics';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack, type ServiceName, type Stack } from '@hoptrack/testing/stack';
import { PROCESSES } from '../build/catalogue';

/**
 * Issue 20, item 3: restarts nobody notices. Two copies of every service and
 * worker behind two gateways, the gateways behind the production edge
 * (HAProxy with infra/haproxy/haproxy.cfg, as compose runs it); steady mixed
 * traffic through the edge (reads, session creates, likes, messages, album
 * photo uploads) while every instance, the gateways' too, is SIGTERMed and
 * started again in turn, then one of each is SIGKILLed and started again.
 *
 * Counted: answers 5xx during the graceful restarts (must be 0) and during
 * the kills (reported); every acknowledged write found afterwards, none
 * stored twice; every backlog (outboxes, consumers, job queues) drained and
 * every uploaded photo processed. Production's drain (SHUTDOWN_DRAIN_MS 2 s)
 * and the gateway's readiness poll (1 s) are used as they ship.
 */
const PEOPLE = 4;
/**
 * Each person acts about every PACE_MS: steady traffic (some 30–40 requests a
 * second in all), not a flood; a flood would measure the local S3 stand-in
 * (s3rver, one process writing files), which stalls under continuous uploads.
 */
const PACE_MS = 100;
const RESTARTED: ServiceName[] = PROCESSES.filter((p) => p.kind !== 'gateway').map((p) => p.name as ServiceName);

let stack: Stack;
/** The stack's gateway and a second one like it; the edge balances over both. */
const gateways: RunningProcess[] = [];
let edge: Edge;
const spawned: RunningProcess[] = [];

beforeAll(async () => {
  stack = await startStack({
    serveWeb: false,
    replicas: 2,
    env: { GATEWAY_RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '2000' },
  });
  gateways.push(stack.gateway);
  // Its own public and operator ports (the metrics, issue 39).
  const metricsPort = await freePort();
  gateways.push(
    await startProcess({ ...stack.gateway.options, port: await freePort(), metricsPort, env: { ...stack.gateway.options.env, GATEWAY_METRICS_PORT: String(metricsPort) } }),
  );
  edge = await startEdge(gateways.map((g) => g.url));
}, 240_000);
afterAll(async () => {
  await edge?.stop();
  await Promise.all([...spawned, ...gateways.slice(1)].map((proc) => proc.stop()));
  await stack?.stop();
});

type Phase = 'graceful' | 'kill';
interface Sample {
  phase: Phase;
  what: string;
  status: number;
}

/** What is still waiting anywhere: outbox rows, consumer backlog, queued or running jobs, in every instance. */
const backlog = () =>
  pendingWork(Object.entries(stack.instances).flatMap(([name, list]) => list.map((proc) => ({ name: `${name}@${proc.port}`, url: proc.url }))));

describe('rolling restart: two copies of everything under steady traffic', () => {
  it('answers no 5xx while every instance restarts gracefully, loses and doubles no acknowledged write, and drains', { timeout: 900_000 }, async () => {
    const { baseUrl } = edge;
    const people: RegisteredUser[] = [];
    for (let i = 0; i < PEOPLE; i++) people.push(await registerUser(baseUrl, `roll${i}`));
    for (let i = 0; i < PEOPLE; i++) await makeFriends(baseUrl, people[i] as RegisteredUser, people[(i + 1) % PEOPLE] as RegisteredUser);
    const albums = await Promise.all(people.map(async (p) => ((await callApi(baseUrl, p.token, 'POST', '/api/albums', { name: 'Rolling' })).body as { id: string }).id));
    const bars = (await callApi(baseUrl, people[0]!.token, 'GET', '/api/bars')).body as Array<{ id: string }>;
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c80' } }).jpeg().toBuffer();

    // What the traffic was told was done, to look for afterwards.
    const created = new Map<string, string[]>(people.map((p) => [p.id, []])); // author → session ids
    const unknownCreates = new Map<string, number>(people.map((p) => [p.id, 0])); // 5xx: stored or not
    const likers = new Map<string, Set<string>>(); // session → who liked it (acknowledged)
    const sent = new Map<string, string[]>(); // "from>to" → message ids
    const unknownMessages = new Map<string, number>(); // "from>to" → 5xx or cut off: stored or not
    const uploaded = new Map<string, string[]>(albums.map((a) => [a, []])); // album → photo ids

    let phase: Phase = 'graceful';
    let running = true;
    const samples: Sample[] = [];
    const timed = async (what: string, call: () => Promise<number>) => {
      const at = phase;
      const status = await call().catch(() => 599);
      samples.push({ phase: at, what, status });
      return status;
    };

    const actions: Array<(me: RegisteredUser, i: number) => Promise<unknown>> = [
      (me) => timed('feed', async () => (await callApi(baseUrl, me.token, 'GET', '/api/sessions?filter=all')).status),
      (me) => timed('threads', async () => (await callApi(baseUrl, me.token, 'GET', '/api/messages')).status),
      (me) => timed('profile', async () => (await callApi(baseUrl, me.token, 'GET', '/api/me')).status),
      (me) => timed('bar', async () => (await callApi(baseUrl, me.token, 'GET', `/api/bars/${bars[0]?.id}`)).status),
      (me) =>
        timed('create session', async () => {
          const form = new FormData();
          form.append('title', 'Rolling restart porter');
          // Unknown outcome: a 5xx, or an answer cut off (the create may be stored all the same).
          const unknown = () => unknownCreates.set(me.id, (unknownCreates.get(me.id) ?? 0) + 1);
          try {
            const res = await fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${me.token}` }, body: form });
            if (res.status === 201) created.get(me.id)?.push(((await res.json()) as { id: string }).id);
            else if (res.status >= 500) unknown();
            return res.status;
          } catch (err) {
            unknown();
            throw err;
          }
        }),
      (me, i) =>
        timed('like', async () => {
          const friend = people[(i + 1) % PEOPLE] as RegisteredUser;
          const sessionId = created.get(friend.id)?.at(-1);
          if (!sessionId) return 200;
          const answer = await callApi(baseUrl, me.token, 'POST', `/api/sessions/${sessionId}/like`);
          if (answer.status === 200) (likers.get(sessionId) ?? likers.set(sessionId, new Set()).get(sessionId))?.add(me.id);
          return answer.status;
        }),
      (me, i) =>
        timed('message', async () => {
          const friend = people[(i + 1) % PEOPLE] as RegisteredUser;
          const key = `${me.id}>${friend.id}`;
          const unknown = () => unknownMessages.set(key, (unknownMessages.get(key) ?? 0) + 1);
          try {
            const answer = await callApi(baseUrl, me.token, 'POST', '/api/messages', { toUserId: friend.id, content: `rolling ${Date.now()}` });
            if (answer.status === 201) (sent.get(key) ?? sent.set(key, []).get(key))?.push((answer.body as { id: string }).id);
            else if (answer.status >= 500) unknown();
            return answer.status;
          } catch (err) {
            unknown();
            throw err;
          }
        }),
      // Uploads are rarer than the rest: the local S3 stand-in (s3rver) slows down with every object
      // it holds (its bucket HEAD went from 30 ms to over 2 s at some 2,000 objects, and media's
      // readiness asks it), which would measure s3rver, not a restart.
      (me, i) =>
        timed('upload', async () => {
          if (Math.random() > 0.25) return (await callApi(baseUrl, me.token, 'GET', `/api/albums/${albums[i]}/photos`)).status;
          const form = new FormData();
          form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'rolling.jpg');
          const res = await fetch(`${baseUrl}/api/albums/${albums[i]}/photos`, { method: 'POST', headers: { authorization: `Bearer ${me.token}` }, body: form });
          if (res.status === 201) uploaded.get(albums[i] as string)?.push(...((await res.json()) as Array<{ id: string }>).map((p) => p.id));
          return res.status;
        }),
    ];
    const traffic = people.map(async (me, i) => {
      while (running) {
        const started = Date.now();
        await (actions[Math.floor(Math.random() * actions.length)] as (me: RegisteredUser, i: number) => Promise<unknown>)(me, i);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (Date.now() - started))));
      }
    });

    /** Per gateway, 1 when it has the instance at `url` in its rotation (its `gateway_upstream_ready` gauge), else 0. */
    const inRotation = (url: string) =>
      Promise.all(
        gateways.map(async (g) => (await scrapeMetrics(g.metricsUrl)).find((s) => s.name === 'gateway_upstream_ready' && s.labels.includes(`instance="${url}"`))?.value ?? 0),
      );
    /** 1 when the edge sends to gateway number `n` (HAProxy's check says UP), else 0. */
    const edgeSendsTo = async (n: number) =>
      (await scrapeMetrics(edge.statsUrl)).find((s) => s.name === 'haproxy_server_status' && s.labels.includes(`server="gateway${n}"`) && s.labels.includes('state="UP"'))
        ?.value ?? 0;

    /** Started again on its port; for a service behind the gateway, until the gateway has it back in rotation. */
    const replace = async (name: ServiceName, index: number, signal: NodeJS.Signals) => {
      const list = stack.instances[name];
      const current = list[index] as RunningProcess;
      const behindGateway = PROCESSES.find((p) => p.name === name)?.gatewayVar;
      await current.stop(signal);
      // Out of rotation first (drained, or seen refusing), so "back in" below means the new process.
      if (behindGateway) await expect.poll(() => inRotation(current.url), { timeout: CONDITION_BOUND_MS }).toEqual(gateways.map(() => 0));
      const next = await startProcess({ ...current.options, readyPath: '/readyz' });
      spawned.push(next);
      list[index] = next;
      if (behindGateway) {
        await expect
          .poll(() => inRotation(next.url), { timeout: CONDITION_BOUND_MS, message: `${next.name} (${signal}) back in rotation:\n${next.lines.slice(-15).join('\n')}` })
          .toEqual(gateways.map(() => 1));
      }
      return current.child.exitCode;
    };
    /** A gateway stopped and started again on its port, until the edge sends to it again. */
    const replaceGateway = async (index: number, signal: NodeJS.Signals) => {
      const current = gateways[index] as RunningProcess;
      await current.stop(signal);
      await expect.poll(() => edgeSendsTo(index + 1), { timeout: CONDITION_BOUND_MS }).toBe(0);
      const next = await startProcess({ ...current.options, readyPath: '/readyz' });
      spawned.push(next);
      gateways[index] = next;
      await expect.poll(() => edgeSendsTo(index + 1), { timeout: CONDITION_BOUND_MS, message: `gateway ${index + 1} (${signal}) back behind the edge` }).toBe(1);
      return current.child.exitCode;
    };

    const exits: Array<{ name: string; code: number | null }> = [];
    for (const name of RESTARTED) {
      for (let index = 0; index < stack.instances[name].length; index++) exits.push({ name: `${name}#${index + 1}`, code: await replace(name, index, 'SIGTERM') });
    }
    for (let index = 0; index < gateways.length; index++) exits.push({ name: `gateway#${index + 1}`, code: await replaceGateway(index, 'SIGTERM') });
    phase = 'kill';
    for (const name of RESTARTED) await replace(name, 0, 'SIGKILL');
    await replaceGateway(0, 'SIGKILL');
    running = false;
    await Promise.all(traffic);

    // Backlogs drain once the traffic stops: polled until they do.
    // The bound only ends a stuck run: a job that failed during the kills waits out its backoff (up to a minute).
    await expect.poll(backlog, { timeout: 300_000, interval: 1000 }).toEqual([]);

    // Every acknowledged session is there, and none twice (a retried create would show as one too many).
    const lost: string[] = [];
    let doubled = 0; // sessions and messages stored more often than sent
    for (const person of people) {
      const mine = (await callApi(baseUrl, person.token, 'GET', '/api/me/sessions?limit=50&offset=0')).body as Array<{ id: string }>;
      let all = mine;
      for (let offset = 50; mine.length > 0 && all.length === offset; offset += 50) {
        all = all.concat((await callApi(baseUrl, person.token, 'GET', `/api/me/sessions?limit=50&offset=${offset}`)).body as Array<{ id: string }>);
      }
      const ids = new Set(all.map((s) => s.id));
      const acked = created.get(person.id) ?? [];
      lost.push(...acked.filter((id) => !ids.has(id)).map((id) => `session ${id}`));
      doubled += Math.max(0, ids.size - acked.length - (unknownCreates.get(person.id) ?? 0));
    }
    for (const [sessionId, who] of likers) {
      const session = (await callApi(baseUrl, people[0]!.token, 'GET', `/api/sessions/${sessionId}`)).body as { likeCount: number };
      if (session.likeCount < who.size) lost.push(`likes of ${sessionId}: ${session.likeCount} < ${who.size}`);
    }
    for (const [key, ids] of sent) {
      const [from, to] = key.split('>') as [string, string];
      const sender = people.find((p) => p.id === from) as RegisteredUser;
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const res: Response = await fetch(`${baseUrl}/api/messages/${to}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${sender.token}` } });
        for (const m of (await res.json()) as Array<{ id: string; fromUserId: string }>) if (m.fromUserId === from) seen.add(m.id);
        cursor = res.headers.get('x-next-cursor');
      } while (cursor);
      lost.push(...ids.filter((id) => !seen.has(id)).map((id) => `message ${id}`));
      // Each person writes to one friend only: more of theirs in the thread than acknowledged and unknown is a double.
      doubled += Math.max(0, seen.size - ids.length - (unknownMessages.get(key) ?? 0));
    }
    let processed = 0;
    for (const [albumId, ids] of uploaded) {
      const owner = people[albums.indexOf(albumId)] as RegisteredUser;
      const photos = (await callApi(baseUrl, owner.token, 'GET', `/api/albums/${albumId}/photos`)).body as Array<{ id: string; status: string }>;
      const byId = new Map(photos.map((p) => [p.id, p.status]));
      lost.push(...ids.filter((id) => !byId.has(id)).map((id) => `photo ${id}`));
      processed += ids.filter((id) => byId.get(id) === 'ready').length;
    }
    const uploads = [...uploaded.values()].flat().length;

    const graceful = samples.filter((s) => s.phase === 'graceful');
    const killed = samples.filter((s) => s.phase === 'kill');
    const fivexx = (list: Sample[]) => list.filter((s) => s.status >= 500);
    const count = (what: string) => samples.filter((s) => s.what === what && s.status < 300).length;
    console.info(
      `[figure] rolling restart, ${RESTARTED.length} processes × ${stack.replicas} and ${gateways.length} gateways behind the edge: ` +
        `${graceful.length} requests during ${exits.length} graceful restarts, 5xx ${fivexx(graceful).length}; ` +
        `${killed.length} requests during ${RESTARTED.length + 1} SIGKILLs, 5xx ${fivexx(killed).length} ` +
        `(${fivexx(killed).map((s) => `${s.what} ${s.status}`).join(', ') || 'none'}); acknowledged: ${count('create session')} sessions, ` +
        `${count('like')} likes, ${count('message')} messages, ${uploads} photos; lost ${lost.length}, doubled ${doubled}; ` +
        `photos processed ${processed}/${uploads}; non-zero exits on SIGTERM ${exits.filter((e) => e.code !== 0).length}`,
    );
    expect(fivexx(graceful).map((s) => `${s.what} ${s.status}`)).toEqual([]);
    expect(lost).toEqual([]);
    expect(doubled).toBe(0);
    expect(processed).toBe(uploads);
    expect(exits.filter((e) => e.code !== 0)).toEqual([]);
    // The traffic really ran through the restarts: writes of every kind were acknowledged.
    for (const what of ['create session', 'message', 'upload', 'feed']) expect(count(what), what).toBeGreaterThan(0);
  });
});
