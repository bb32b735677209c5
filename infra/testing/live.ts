import { LIVE_EVENTS_PATH } from '@hoptrack/proto';
import { eventually } from './index';

export interface LiveEvent {
  event: string;
  data: unknown;
}

export interface LiveClient {
  status: number;
  contentType: string | null;
  /** Every event received so far, in order. */
  events: LiveEvent[];
  /** Waits for an event matching `match` (received before or after the call). */
  waitFor(match: (e: LiveEvent) => boolean, what: string, timeoutMs?: number): Promise<LiveEvent>;
  /** Resolves when the stream ends, cleanly or cut (a proxy dropping it); never rejects. */
  ended: Promise<void>;
  close(): void;
}

/**
 * A client of the live stream (GET /api/messages/events) over fetch, as the
 * web app reads it (EventSource cannot send the bearer token), for the
 * messaging, gateway and flow tests and the bench. Resolves once the response
 * headers arrived; for a 200 it waits for the `ready` event too. `onEvent`
 * hears each event as it arrives (the bench times deliveries by it).
 */
export async function openLive(baseUrl: string, token: string, onEvent?: (event: LiveEvent) => void): Promise<LiveClient> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}${LIVE_EVENTS_PATH}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const events: LiveEvent[] = [];
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!name) continue;
          const event: LiveEvent = { event: name, data: data ? JSON.parse(data) : null };
          events.push(event);
          onEvent?.(event);
        }
      }
    } catch {
      // Aborted by close(), or cut by the server or a proxy: either way the stream is over.
    }
  })();
  const client: LiveClient = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    async waitFor(match, what, timeoutMs = 5000) {
      await eventually(async () => events.some(match), what, timeoutMs);
      return events.find(match) as LiveEvent;
    },
    ended,
    close: () => abort.abort(),
  };
  if (res.status === 200) await client.waitFor((e) => e.event === 'ready', 'ready event');
  return client;
}
