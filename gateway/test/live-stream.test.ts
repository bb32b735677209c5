import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, type RunningProcess } from '@hoptrack/testing/processes';
import { rateLimitPrefix } from './support';

/**
 * A browser that leaves a page closes its live stream (GET /api/messages/events);
 * the gateway must then close its own request to the service. Otherwise every
 * tab ever opened keeps a socket to messaging (and a subscriber in it) until the
 * service's next restart, and once the agent's 256 sockets are taken, every call
 * to messaging queues behind them.
 */
/** The messaging-live endpoint of gateway.config.yml. */
const LIVE_EVENTS_PATH = '/api/messages/events';
/** An ordinary messaging call, answered at once by the stand-in. */
const UNREAD_PATH = '/api/messages/unread';

/** Opens a stream through the gateway and waits for its first chunk: it is open end to end. */
async function openStream(origin: string): Promise<AbortController> {
  const controller = new AbortController();
  const res = await fetch(`${origin}${LIVE_EVENTS_PATH}`, { signal: controller.signal });
  expect(res.status).toBe(200);
  const first = await res.body?.getReader().read();
  expect(new TextDecoder().decode(first?.value)).toBe(': connected\n\n');
  return controller;
}

describe('gateway → a live event stream', () => {
  // A stand-in for messaging: answers the stream with headers and a comment, then stays silent.
  const upstreamSockets = new Set<Socket>();
  /** The sockets that carried a stream (the gateway's readiness polls keep one kept-alive socket of their own, issue 41). */
  const streamSockets = new Set<Socket>();
  let streamsStarted = 0;
  let service: Server;
  let gateway: RunningProcess;

  beforeAll(async () => {
    service = createServer((req, res) => {
      if (req.url === UNREAD_PATH) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"unreadCount":0}');
        return;
      }
      if (req.url !== LIVE_EVENTS_PATH) {
        res.writeHead(404).end();
        return;
      }
      streamsStarted += 1;
      const socket = req.socket;
      streamSockets.add(socket);
      socket.once('close', () => streamSockets.delete(socket));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': connected\n\n');
      // A heartbeat inside the proxy's 30 s idle timeout, as messaging's (a busy machine takes a while to open 300).
      const beat = setInterval(() => res.write(': heartbeat\n\n'), 5_000);
      socket.once('close', () => clearInterval(beat));
    });
    service.on('connection', (socket: Socket) => {
      upstreamSockets.add(socket);
      socket.once('close', () => upstreamSockets.delete(socket));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
    gateway = await startGateway({
      env: {
        MESSAGING_SERVICE_URL: `http://127.0.0.1:${port}`,
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('live-stream'),
        WEB_DIST_DIR: '',
      },
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    service?.closeAllConnections();
    await new Promise<void>((resolve) => (service ? service.close(() => resolve()) : resolve()));
  });

  it('closes the socket to the service once the client has gone', async () => {
    const STREAMS = 40;
    const clients = await Promise.all(Array.from({ length: STREAMS }, () => openStream(gateway.url)));
    expect(streamsStarted).toBe(STREAMS);
    expect(upstreamSockets.size).toBeGreaterThanOrEqual(STREAMS);

    for (const client of clients) client.abort();
    // Every socket that carried a stream must close.
    await expect.poll(() => streamSockets.size, { timeout: CONDITION_BOUND_MS }).toBe(0);
    // A client leaving is no failure of the service: no 502 logged for it.
    expect(gateway.lines.filter((line) => line.includes('proxying failed'))).toEqual([]);
  });

  it('keeps the API calls to the service answering with more streams open than the API pool has sockets (issue 41)', async () => {
    // The API's pool holds 256 sockets per instance (plugin/proxy.ts); streams in that pool would take them all.
    const STREAMS = 300;
    const before = streamsStarted;
    const clients: AbortController[] = [];
    for (let i = 0; i < STREAMS; i += 50) clients.push(...(await Promise.all(Array.from({ length: 50 }, () => openStream(gateway.url)))));
    try {
      expect(streamsStarted - before).toBe(STREAMS);
      expect(streamSockets.size).toBeGreaterThanOrEqual(STREAMS);
      // With the streams in the API's pool this call would wait for a socket until a stream closed: never, here.
      const res = await fetch(`${gateway.url}${UNREAD_PATH}`, { signal: AbortSignal.timeout(15_000) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ unreadCount: 0 });
    } finally {
      for (const client of clients) client.abort();
    }
    await expect.poll(() => streamSockets.size, { timeout: CONDITION_BOUND_MS }).toBe(0);
  });
});
