import { headers as natsHeaders, type JsMsg } from 'nats';
import { streamNameFor } from '@hoptrack/proto';
import type { Bus } from './connection';
import { ensureStreams } from './connection';

/** Headers a dead letter carries besides the original payload (its body, byte for byte). */
export const DEAD_LETTER_HEADERS = {
  subject: 'Hoptrack-Original-Subject',
  stream: 'Hoptrack-Original-Stream',
  seq: 'Hoptrack-Original-Seq',
  consumer: 'Hoptrack-Consumer',
  deliveries: 'Hoptrack-Deliveries',
  error: 'Hoptrack-Error',
  parkedAt: 'Hoptrack-Parked-At',
} as const;

export interface DeadLetter {
  /** Its sequence in the DEADLETTER stream: what replay and discard take. */
  seq: number;
  consumer: string;
  subject: string;
  stream: string;
  originalSeq: number;
  deliveries: number;
  error: string;
  parkedAt: string;
  payload: string;
}

export const deadLetterSubject = (bus: Bus, consumer: string) => `${bus.namespace}.deadletter.${consumer.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * Parks a message no handler could take: its payload goes to the DEADLETTER
 * stream with where it came from and why, and only once JetStream has stored
 * it may the caller terminate the original. Published with a message id of
 * the consumer and the original sequence, so parking twice (a crash between
 * the two steps) keeps one copy.
 */
export async function parkDeadLetter(bus: Bus, msg: JsMsg, consumer: string, error: unknown): Promise<void> {
  const h = natsHeaders();
  h.set(DEAD_LETTER_HEADERS.subject, msg.subject);
  h.set(DEAD_LETTER_HEADERS.stream, msg.info.stream);
  h.set(DEAD_LETTER_HEADERS.seq, String(msg.seq));
  h.set(DEAD_LETTER_HEADERS.consumer, consumer);
  h.set(DEAD_LETTER_HEADERS.deliveries, String(msg.info.deliveryCount));
  h.set(DEAD_LETTER_HEADERS.error, String(error instanceof Error ? error.message : error).replace(/[\r\n]+/g, ' ').slice(0, 500));
  h.set(DEAD_LETTER_HEADERS.parkedAt, new Date().toISOString());
  await bus.js.publish(deadLetterSubject(bus, consumer), msg.data, { headers: h, msgID: `dead:${consumer}:${msg.info.stream}:${msg.seq}` });
}

/** One dead letter by its sequence; null when it was replayed or discarded (JetStream 10037). */
async function readDeadLetter(bus: Bus, seq: number): Promise<DeadLetter | null> {
  const stored = await bus.jsm.streams.getMessage(streamNameFor(bus.namespace, 'DEADLETTER'), { seq }).catch((err: unknown) => {
    if ((err as { api_error?: { err_code?: number } }).api_error?.err_code === 10037 || /no message found/i.test(String(err))) return null;
    throw err;
  });
  if (!stored) return null;
  const get = (name: string) => stored.header?.get(name) ?? '';
  return {
    seq,
    consumer: get(DEAD_LETTER_HEADERS.consumer),
    subject: get(DEAD_LETTER_HEADERS.subject),
    stream: get(DEAD_LETTER_HEADERS.stream),
    originalSeq: Number(get(DEAD_LETTER_HEADERS.seq)),
    deliveries: Number(get(DEAD_LETTER_HEADERS.deliveries)),
    error: get(DEAD_LETTER_HEADERS.error),
    parkedAt: get(DEAD_LETTER_HEADERS.parkedAt),
    payload: new TextDecoder().decode(stored.data),
  };
}

/** The dead letters of this namespace, oldest first. */
export async function listDeadLetters(bus: Bus, limit = 100): Promise<DeadLetter[]> {
  await ensureStreams(bus, ['DEADLETTER']);
  const info = await bus.jsm.streams.info(streamNameFor(bus.namespace, 'DEADLETTER'));
  const letters: DeadLetter[] = [];
  // A stream that never held a letter reports first = last = 0, and sequence 0 is a bad request.
  for (let seq = Math.max(1, info.state.first_seq); seq <= info.state.last_seq && letters.length < limit; seq += 1) {
    const letter = await readDeadLetter(bus, seq);
    if (letter) letters.push(letter);
  }
  return letters;
}

/**
 * Puts a dead letter back on its original subject, then removes it from the
 * DEADLETTER stream. Every consumer of that stream sees the event again:
 * those that applied it already skip it (their inbox has its event id), the
 * one that could not now takes it, its cause fixed. A new message id
 * (`replay:<seq>`), since the original's may still be inside the duplicate
 * window.
 */
export async function replayDeadLetter(bus: Bus, seq: number): Promise<DeadLetter> {
  await ensureStreams(bus, ['DEADLETTER']);
  const letter = await readDeadLetter(bus, seq);
  if (!letter) throw new Error(`no dead letter ${seq} in ${streamNameFor(bus.namespace, 'DEADLETTER')}`);
  await bus.js.publish(letter.subject, new TextEncoder().encode(letter.payload), { msgID: `replay:${bus.namespace}:${seq}` });
  await discardDeadLetter(bus, seq);
  return letter;
}

/** Drops a dead letter an operator decided is not worth replaying. */
export async function discardDeadLetter(bus: Bus, seq: number): Promise<void> {
  await bus.jsm.streams.deleteMessage(streamNameFor(bus.namespace, 'DEADLETTER'), seq, false);
}
