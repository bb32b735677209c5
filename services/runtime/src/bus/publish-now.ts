import { randomUUID } from 'node:crypto';
import { eventSchemas, subjectFor, type EventData, type EventEnvelope, type EventType } from '@hoptrack/proto';
import type { Bus } from './connection';

/**
 * Publishes one event straight to the bus, not through the outbox: for an
 * event that no database change of the caller's must commit with (a report,
 * a request, a signal after a Redis write). `msgId` is what makes it once:
 * derived from what caused it, so a retry of the cause inside JetStream's
 * duplicate window publishes nothing new. The payload is checked against its
 * contract first.
 */
export async function publishNow<T extends EventType>(bus: Bus, type: T, data: EventData<T>, msgId: string, requestId?: string): Promise<EventEnvelope<T>> {
  const envelope: EventEnvelope<T> = {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    ...(requestId ? { requestId } : {}),
    data: eventSchemas[type].parse(data) as EventData<T>,
  };
  await bus.publish(subjectFor(bus.namespace, type), JSON.stringify(envelope), msgId);
  return envelope;
}
