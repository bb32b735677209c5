import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const clients = await Promise.all(
      Array.from({ length: STREAMS }, async () => {
        const controller = new AbortController();
        const res = await fetch(`${gateway.url}${LIVE_EVENTS_PATH}`, { signal: controller.signal });
        expect(res.status).toBe(200);
        // The first chunk has come through the gateway: the stream is really open end to end.
        const reader = res.body?.getReader();
        const first = await reader?.read();
        expect(new TextDecoder().decode(first?.value)).toBe(': connected\n\n');
        return controller;
      }),
    );
    expect(streamsStarted).toBe(STREAMS);
    expect(upstreamSockets.size).toBeGreaterThanOrEqual(STREAMS);

    for (const client of clients) client.abort();
    // Every socket that carried a stream must close.
    await expect.poll(() => streamSockets.size, { timeout: 10_000 }).toBe(0);
    // A client leaving is no failure of the service: no 502 logged for it.
    expect(gateway.lines.filter((line) => line.includes('proxying failed'))).toEqual([]);
  });
});
