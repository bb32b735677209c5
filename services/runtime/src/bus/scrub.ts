import { DeliverPolicy, type ConsumerInfo } from 'nats';
import { streamNameFor } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { Bus } from './connection';
import { settledEverywhere, type PurgeResult } from './purge';

const BATCH = 500;

/**
 * Deletes every dead letter whose subject, headers or payload names one of
 * `needles` (case-insensitive): an erased person's poison events, copied
 * there by a consumer that could not take them (dead-letters.ts). The event
 * streams are not read at all: their messages of the person are deleted by
 * sequence (bus/purge.ts). The dead-letter stream is the exception, read whole
 * because nothing records what a parked copy names; it holds only what
 * operators have not replayed or discarded yet (none, in a healthy stack), so
 * the read costs the dead letters, not the history. A dead letter some
 * durable has not acknowledged waits for the next pass.
 */
export async function scrubDeadLetters(bus: Bus, needles: readonly string[], logger: Logger): Promise<PurgeResult> {
  const lowered = needles.map((n) => n.toLowerCase()).filter((n) => n.length > 0);
  const result: PurgeResult = { deleted: 0, waiting: 0 };
  const name = streamNameFor(bus.namespace, 'DEADLETTER');
  const info = await bus.jsm.streams.info(name).catch(() => null);
  if (!info || info.state.messages === 0) return result;
  const decoder = new TextDecoder();
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
  if (found.length === 0) return result;
  const consumers: ConsumerInfo[] = [];
  for await (const c of bus.jsm.consumers.list(name)) consumers.push(c);
  for (const { seq, subject } of found) {
    if (!settledEverywhere(consumers, subject, seq)) {
      result.waiting += 1;
      continue;
    }
    if (await bus.jsm.streams.deleteMessage(name, seq, true).catch(() => false)) result.deleted += 1;
  }
  if (result.deleted > 0 || result.waiting > 0) logger.info(result, 'dead letters scrubbed of an erased person');
  return result;
}
