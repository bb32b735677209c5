import { parseEvent, streamNameFor, type EventEnvelope, type StreamName } from '@hoptrack/proto';
import type { Bus } from '../bus/connection';

/**
 * Reads every event currently stored in a stream, in order, by sequence
 * number: no consumer is created, so reading leaves nothing behind.
 */
export async function readEvents(bus: Bus, stream: StreamName): Promise<EventEnvelope[]> {
  const name = streamNameFor(bus.namespace, stream);
  const { state } = await bus.jsm.streams.info(name);
  const events: EventEnvelope[] = [];
  if (state.messages === 0) return events;
  for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
    const stored = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
    if (stored) events.push(parseEvent(stored.json()));
  }
  return events;
}
