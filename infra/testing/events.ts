import { randomUUID } from 'node:crypto';
import { parseEvent, streamNameFor, subjectFor, type EventData, type EventEnvelope, type EventType, type StreamName } from '@hoptrack/proto';
import type { Bus } from '@hoptrack/runtime';
import type { ConsumerInfo, StoredMsg } from 'nats';
import { CONDITION_BOUND_MS } from './bounds';

/**
 * Reads every event (of the given types, or all) currently stored in a stream, in order, by sequence
 * number: no consumer is created, so reading leaves nothing behind.
 */
export async function readEvents<T extends EventType>(bus: Bus, stream: StreamName, ...types: T[]): Promise<Array<EventEnvelope<T>>> {
  const name = streamNameFor(bus.namespace, stream);
  const { state } = await bus.jsm.streams.info(name);
  const events: Array<EventEnvelope<T>> = [];
  const wanted = (event: EventEnvelope): event is EventEnvelope<T> => types.length === 0 || types.includes(event.type as T);
  if (state.messages === 0) return events;
  for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
    const stored = await storedMessage(bus, name, seq);
    if (!stored) continue;
    const event = parseEvent(stored.json());
    if (wanted(event)) events.push(event);
  }
  return events;
}

/** JetStream's answer for a sequence number that holds no message (deleted, or a gap). */
const NO_MESSAGE_FOUND = 10037;

/**
 * One stored message, or null where the stream holds none at that sequence.
 * Any other failure (a request timing out on a loaded machine) is tried again
 * and, if it persists, thrown: a fault test that counted a message it could
 * not read as missing would report a loss that never happened (seen once as
 * 'events lost 14' beside `make dev` and stress-ng).
 */
async function storedMessage(bus: Bus, stream: string, seq: number, attempts = 5): Promise<StoredMsg | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bus.jsm.streams.getMessage(stream, { seq });
    } catch (err) {
      const apiError = (err as { api_error?: { err_code?: number } }).api_error;
      if (apiError?.err_code === NO_MESSAGE_FOUND) return null;
      if (attempt >= attempts) throw err;
    }
  }
}

/** Publishes an event as another service would (what a consumer under test receives). */
export async function publishEvent<T extends EventType>(bus: Bus, type: T, data: EventData<T>): Promise<EventEnvelope<T>> {
  const envelope: EventEnvelope<T> = { id: randomUUID(), type, occurredAt: new Date().toISOString(), data };
  await bus.publish(subjectFor(bus.namespace, type), JSON.stringify(envelope), envelope.id);
  return envelope;
}

/** Polls until `check` holds: consumers apply events asynchronously. Fails after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = CONDITION_BOUND_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} not met within ${timeoutMs} ms`);
}

/**
 * Waits until a durable consumer has nothing left to deliver and nothing
 * delivered unacknowledged. From then on no delivery of what the stream held
 * can still come: the way to prove that something did *not* happen (a
 * duplicate skipped, no redelivery) without sleeping for a guessed window.
 */
export async function consumerSettled(bus: Bus, stream: StreamName, durable: string, timeoutMs = CONDITION_BOUND_MS): Promise<ConsumerInfo> {
  const name = streamNameFor(bus.namespace, stream);
  let info: ConsumerInfo | undefined;
  await eventually(
    async () => {
      info = await bus.jsm.consumers.info(name, durable);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    `consumer ${durable} settled`,
    timeoutMs,
  );
  // `eventually` returned, so the last look found it settled.
  return info as ConsumerInfo;
}

/** Waits until every one of the durables has settled (consumerSettled, each in turn): everything published before the call has been handled. */
export async function consumersSettled(bus: Bus, durables: ReadonlyArray<{ stream: StreamName; durable: string }>): Promise<void> {
  for (const { stream, durable } of durables) await consumerSettled(bus, stream, durable);
}
