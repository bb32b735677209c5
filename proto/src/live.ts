import type { EventData, EventEnvelope, EventType, StreamName } from './events';
import type { LiveEventName } from './messaging';

/**
 * A push to people's open live streams (GET LIVE_EVENTS_PATH), declared by
 * the feature whose bus event it relays (issue 37, item 7): the live hub
 * relays every declared push and knows none of them. The bell's count is
 * the notifications feature's push (notifications.ts), a message the
 * messaging feature's (messaging.ts).
 */
export interface LivePush<T extends EventType> {
  /** The stream the event is on, and the event. */
  stream: StreamName;
  event: T;
  /** The SSE event name the browser listens to. */
  name: LiveEventName;
  /** Whose open streams get it. */
  to(data: EventData<T>): string[];
  /** What they get: never more than the event says, often less. */
  payload(data: EventData<T>): object;
}

/** A declared push, as the hub holds it: what an event of its type delivers, to whom. */
export interface DeclaredPush {
  stream: StreamName;
  event: EventType;
  name: LiveEventName;
  delivery(event: EventEnvelope): { to: string[]; payload: object } | null;
}

/** Declares a push, typed by its event. */
export function definePush<T extends EventType>(push: LivePush<T>): DeclaredPush {
  return {
    stream: push.stream,
    event: push.event,
    name: push.name,
    delivery(event) {
      if (event.type !== push.event) return null;
      // parseEvent checked the data against the schema of its type, which is T here.
      const data = event.data as EventData<T>;
      return { to: push.to(data), payload: push.payload(data) };
    },
  };
}
