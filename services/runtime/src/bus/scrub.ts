import { DeliverPolicy, type ConsumerInfo } from 'nats';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { Bus } from './connection';

export interface ScrubResult {
  /** Messages deleted from the streams in this pass. */
  deleted: number;
  /** Messages naming the person that some consumer has not acknowledged yet: left for the next pass. */
  waiting: number;
}

const BATCH = 500;

/** NATS subject matching, for the filters our consumers use (`*` one token, `>` the rest). */
export function subjectMatches(filter: string, subject: string): boolean {
  if (!filter) return true;
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i += 1) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}

/**
 * Whether every durable consumer that would deliver `subject` is done with
 * message `seq`: acknowledged up to it, or nothing left to deliver or to
 * acknowledge at all (a filtered consumer's floor stays at the last message
 * it matched). Ephemeral readers (live streams, tools) do not count.
 */
function settledEverywhere(consumers: readonly ConsumerInfo[], subject: string, seq: number): boolean {
  return consumers.every((c) => {
    if (!c.config.durable_name) return true;
    const filters = c.config.filter_subjects ?? (c.config.filter_subject ? [c.config.filter_subject] : []);
    const delivers = filters.length === 0 || filters.some((f) => subjectMatches(f, subject));
    const caughtUp = c.num_pending === 0 && c.num_ack_pending === 0;
    return !delivers || caughtUp || c.ack_floor.stream_seq >= seq;
  });
}

/**
 * Deletes every message of the namespace's streams whose subject, headers or
 * payload names one of `needles` (case-insensitive): an erased person's
 * events (issue 24). A message is deleted only once every durable consumer
 * that would deliver it has acknowledged it, so no service misses the
 * deletion itself or an event it still has to apply; the rest waits for the
 * next pass. Deleted with `erase`, so the bytes are overwritten on disk too.
 *
 * Reads each stream whole (an ordered consumer): the streams keep 7 days, so
 * a pass costs a read of a week's events (docs/reliability.md).
 */
export async function scrubStreams(bus: Bus, needles: readonly string[], logger: Logger): Promise<ScrubResult> {
  const lowered = needles.map((n) => n.toLowerCase()).filter((n) => n.length > 0);
  const result: ScrubResult = { deleted: 0, waiting: 0 };
  const decoder = new TextDecoder();
  for (const stream of Object.keys(streams) as StreamName[]) {
    const name = streamNameFor(bus.namespace, stream);
    const info = await bus.jsm.streams.info(name).catch(() => null);
    if (!info || info.state.messages === 0) continue;
    const last = info.state.last_seq;
    const found: Array<{ seq: number; subject: string }> = [];
    const reader = await bus.js.consumers.get(name, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: info.state.first_seq });
    try {
      let reached = false;
      while (!reached) {
        const batch = await reader.fetch({ max_messages: BATCH, expires: 2_000 });
        let got = 0;
        for await (const msg of batch) {
          got += 1;
          const text = `${msg.subject}\n${msg.headers?.toString() ?? ''}\n${decoder.decode(msg.data)}`.toLowerCase();
          if (lowered.some((n) => text.includes(n))) found.push({ seq: msg.seq, subject: msg.subject });
          if (msg.seq >= last) reached = true;
        }
        if (got === 0) reached = true;
      }
    } finally {
      await reader.delete().catch(() => undefined);
    }
    if (found.length === 0) continue;
    const consumers: ConsumerInfo[] = [];
    for await (const c of bus.jsm.consumers.list(name)) consumers.push(c);
    for (const { seq, subject } of found) {
      if (!settledEverywhere(consumers, subject, seq)) {
        result.waiting += 1;
        continue;
      }
      // Gone already (another replica's pass, or the stream's age limit): nothing to do.
      if (await bus.jsm.streams.deleteMessage(name, seq, true).catch(() => false)) result.deleted += 1;
    }
  }
  if (result.deleted > 0 || result.waiting > 0) logger.info(result, 'streams scrubbed of an erased person');
  return result;
}
