import { randomUUID } from 'node:crypto';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import { connectBus, createLogger, type Bus } from '@hoptrack/runtime';
import pg from 'pg';
import type { BenchContext, Benchmark } from './lib/context';
import { ProcessMeter, type ProcessCost } from './lib/procstat';
import { compare, round } from './lib/report';
import { BENCH_SESSION_FORM, SESSION_FORM_CONTENT_TYPE } from './lib/session-form';
import { againstGoal, measureIdle, stackCpu, stackProcesses, untilQuiet } from './lib/stack-meter';
import { SEED_PASSWORD, userId } from './seed';

/**
 * 11. Erasure at scale (issue 41, item 5): what one person's erasure costs the
 * whole stack — DELETE /api/me through the gateway, every service's two
 * passes, the reports, auth's scrub and every purger deleting the person's
 * messages by sequence — once with the streams as the run left them, and
 * again with 10 million events stored (filler in the NOTIFICATIONS stream,
 * which no durable consumer reads, so the fill costs no service a thing).
 * The design's claim is that the second costs what the first does: nothing
 * reads a stream. The erasure is done when auth's record is gone and no
 * database has a message queued for purging; the idle stack's share of the
 * window (the second pass's grace) is taken off.
 */
const STORED_EVENTS = 10_000_000;
const SMOKE_STORED_EVENTS = 20_000;
const GOAL_CPU_SECONDS = 1;
/** Core publishes between flushes: the server's pace holds the filler's back (nothing is dropped, and the count is checked). */
const FLUSH_EVERY = 5_000;

/** Every stream's messages and last sequences, summed (one info request per stream). */
async function streamTotals(bus: Bus): Promise<{ messages: number; lastSeq: number }> {
  let messages = 0;
  let lastSeq = 0;
  for (const stream of Object.keys(streams) as StreamName[]) {
    const info = await bus.jsm.streams.info(streamNameFor(bus.namespace, stream)).catch(() => null);
    messages += info?.state.messages ?? 0;
    lastSeq += info?.state.last_seq ?? 0;
  }
  return { messages, lastSeq };
}

/** The filler's stream and subject: a type no contract declares, in a stream no durable reads. */
const FILLER_STREAM: StreamName = 'NOTIFICATIONS';
const fillerSubject = (namespace: string) => `${namespace}.notification.bench-filler.v1`;

/**
 * Stores filler messages until the namespace's streams hold `target` in all.
 * Refuses when a durable consumer reads the filler's stream: it would have to
 * read (and park, as no contract declares the type) every filler message, and
 * the figure would be that consumer's, not the erasure's.
 */
async function fill(bus: Bus, target: number, log: (m: string) => void): Promise<number> {
  const stream = streamNameFor(bus.namespace, FILLER_STREAM);
  for await (const c of bus.jsm.consumers.list(stream)) {
    if (c.config.durable_name) throw new Error(`durable ${c.config.durable_name} reads ${stream}: the filler needs a stream no durable reads`);
  }
  const subject = fillerSubject(bus.namespace);
  const payloads = Array.from({ length: 1_000 }, (_, i) =>
    Buffer.from(JSON.stringify({ id: randomUUID(), type: 'bench.filler', occurredAt: new Date().toISOString(), data: { userId: randomUUID(), unreadCount: i % 9 } })),
  );
  const started = performance.now();
  let sent = 0;
  for (;;) {
    const { messages } = await streamTotals(bus);
    const missing = target - messages;
    if (missing <= 0) break;
    for (let i = 0; i < missing; i += 1) {
      bus.nc.publish(subject, payloads[sent % payloads.length]);
      sent += 1;
      if (sent % FLUSH_EVERY === 0) await bus.nc.flush();
      if (sent % 1_000_000 === 0) log(`  ${sent.toLocaleString('en-GB')} filler events stored`);
    }
    await bus.nc.flush();
  }
  log(`  ${sent.toLocaleString('en-GB')} filler events in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return sent;
}

interface Erasures {
  people: number;
  cpuSeconds: number;
  windowSeconds: number;
  idleCores: number;
  streamMessages: number;
  messagesPurged: number;
  costs: ProcessCost[];
}

/** K people log a session (their events in the streams), then delete their accounts; measured until every trace is gone. */
async function erase(ctx: BenchContext, bus: Bus, people: number[]): Promise<Erasures> {
  const tokens = await Promise.all(people.map((i) => ctx.token(i)));
  const call = (method: string, path: string, token: string, body: Uint8Array | string, type: string) =>
    fetch(`${ctx.stack.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  for (const token of tokens) {
    const created = await call('POST', '/api/sessions', token, BENCH_SESSION_FORM, SESSION_FORM_CONTENT_TYPE);
    if (created.status !== 201) throw new Error(`a session create answered ${created.status}: ${await created.text()}`);
  }
  const idle = await measureIdle(ctx, ctx.smoke ? 2 : 10);
  const before = await streamTotals(bus);
  const auth = new pg.Client({ connectionString: ctx.databases.auth });
  const others = Object.values(ctx.databases).map((url) => new pg.Client({ connectionString: url }));
  await auth.connect();
  for (const db of others) await db.connect();
  const meter = ProcessMeter.of(stackProcesses(ctx));
  meter.begin();
  const started = performance.now();
  try {
    const answers = await Promise.all(tokens.map((t) => call('DELETE', '/api/me', t, JSON.stringify({ password: SEED_PASSWORD, confirm: 'DELETE' }), 'application/json')));
    const failed = answers.filter((a) => a.status !== 200);
    if (failed.length > 0) throw new Error(`DELETE /api/me answered ${failed.map((a) => a.status).join(', ')}`);
    const ids = people.map((i) => userId(i));
    const bound = performance.now() + (ctx.smoke ? 60_000 : 300_000);
    for (;;) {
      const records = Number((await auth.query<{ n: string }>('SELECT count(*) AS n FROM erasures WHERE user_id = ANY($1::uuid[])', [ids])).rows[0]?.n ?? 0);
      let queued = 0;
      for (const db of others) queued += Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM stream_purges')).rows[0]?.n ?? 0);
      if (records === 0 && queued === 0) break;
      if (performance.now() > bound) throw new Error(`erasures not finished in time: ${records} records, ${queued} messages queued`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await untilQuiet(ctx, idle.cores);
  } finally {
    await auth.end();
    for (const db of others) await db.end();
  }
  const costs = meter.end(people.length);
  const windowMs = performance.now() - started;
  const after = await streamTotals(bus);
  // Stored in the window less what the streams grew by: what left them (the age limit takes nothing of a few minutes).
  const messagesPurged = after.lastSeq - before.lastSeq - (after.messages - before.messages);
  if (messagesPurged === 0) throw new Error('the erasures deleted no message from the streams');
  return {
    people: people.length,
    cpuSeconds: (stackCpu(costs) - idle.cores * windowMs) / people.length / 1000,
    windowSeconds: windowMs / 1000,
    idleCores: idle.cores,
    streamMessages: before.messages,
    messagesPurged,
    costs,
  };
}

const summary = (e: Erasures) => ({
  people: e.people,
  cpuSecondsPerPerson: round(e.cpuSeconds, 3),
  windowSeconds: round(e.windowSeconds, 1),
  idleCores: round(e.idleCores, 3),
  streamMessages: e.streamMessages,
  messagesPurged: e.messagesPurged,
  costs: e.costs,
});

export const benchErasure: Benchmark = async (ctx) => {
  const { users } = ctx.seed.scale;
  const k = ctx.smoke ? 2 : 10;
  // Ordinary people (friends, sessions, likes of their own), none of the other benchmarks' readers or authors.
  const group = (from: number) => Array.from({ length: k }, (_, i) => Math.floor(users * 0.8) + from + i * 7);
  const bus = await connectBus({ url: ctx.natsUrl, name: 'bench-erasure', namespace: ctx.namespace, logger: createLogger('bench', 'silent') });
  const filler = streamNameFor(ctx.namespace, FILLER_STREAM);
  try {
    const small = await erase(ctx, bus, group(0));
    ctx.log(`  erasure with ${small.streamMessages.toLocaleString('en-GB')} events stored: ${small.cpuSeconds.toFixed(2)} CPU-s a person (${small.messagesPurged} messages purged)`);
    const target = ctx.smoke ? SMOKE_STORED_EVENTS : STORED_EVENTS;
    await fill(bus, target, ctx.log);
    const large = await erase(ctx, bus, group(3));
    ctx.log(`  erasure with ${large.streamMessages.toLocaleString('en-GB')} events stored: ${large.cpuSeconds.toFixed(2)} CPU-s a person (${large.messagesPurged} messages purged)`);
    const stored = `${(large.streamMessages / 1_000_000).toLocaleString('en-GB', { maximumFractionDigits: 2 })} M`;
    return {
      id: 'erasure',
      title: 'Erasure, whole stack, against the events stored',
      comparisons: [
        againstGoal({
          measure: `Erasure CPU-s per person with ${stored} events stored (${k} people at once, DELETE /api/me to the last message purged; the idle stack's share taken off)`,
          value: round(large.cpuSeconds, 3),
          unit: 's',
          referenceValue: GOAL_CPU_SECONDS,
        }),
        compare({
          measure: `Erasure CPU-s per person with ${stored} events stored`,
          value: round(large.cpuSeconds, 3),
          unit: 's',
          reference: `the same with the ${small.streamMessages.toLocaleString('en-GB')} events the run had stored (independent of the streams' size: ratio ≈ 1)`,
          referenceValue: round(small.cpuSeconds, 3),
        }),
      ],
      costs: [...small.costs.map((c) => ({ at: `erasure, ${small.streamMessages} events stored`, ...c })), ...large.costs.map((c) => ({ at: `erasure, ${large.streamMessages} events stored`, ...c }))],
      details: { seededStreams: summary(small), storedStreams: summary(large) },
    };
  } finally {
    // The filler goes (one purge by subject): the bench's databases and streams stay for a look, not its 10 M fillers on disk.
    await bus.jsm.streams.purge(filler, { filter: fillerSubject(ctx.namespace) }).catch(() => undefined);
    await bus.close();
  }
};
