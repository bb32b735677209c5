import { parseEvent, streamNameFor, type EventEnvelope, type EventType, type StreamName } from '@hoptrack/proto';
import type { Bus } from '../bus/connection';

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
    const stored = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
    if (!stored) continue;
    const event = parseEvent(stored.json());
    if (wanted(event)) events.push(event);
  }
  return events;
}
