import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What the front does with the requests that come to it. */
export type FrontMode =
  /** Forwards them to the S3 server. */
  | 'pass'
  /** Cuts their connections at once (a store that died: ECONNRESET). */
  | 'reset'
  /** Answers 500 InternalError (a store that is up and failing). */
  | 'error'
  /** Takes them and never answers (a store that hangs). */
  | 'silent';

export interface S3Front {
  /** Starts forwarding to `server` and answers the front's own endpoint (for startTestMedia's s3Endpoint). */
  forwardTo(server: string): string;
  mode: FrontMode;
  /** Cuts the connection of the `n`th request from now on that matches (1 = the next), then passes again. */
  resetNth(n: number, matches: (req: IncomingMessage) => boolean): void;
  /** Requests that came since the last call, as `METHOD /path`. */
  seen(): string[];
  close(): Promise<void>;
}

/**
 * An HTTP front before the tests' S3 server that can fail on demand: the
 * media service talks S3 through it, and a test switches it to a failure
 * mode (or fails one request of many) while requests are in flight.
 * Headers pass unchanged, so the client's signatures (made for the front's
 * host) still verify at the server.
 */
export async function startS3Front(): Promise<S3Front> {
  let target: URL | null = null;
  const sockets = new Set<Socket>();
  let log: string[] = [];
  let pendingReset: { left: number; matches: (req: IncomingMessage) => boolean } | null = null;
  const front: S3Front = {
    mode: 'pass',
    forwardTo(server) {
      target = new URL(server);
      const address = http.address();
      if (address === null || typeof address === 'string') throw new Error('the S3 front does not listen');
      return `http://127.0.0.1:${address.port}`;
    },
    resetNth(n, matches) {
      pendingReset = { left: n, matches };
    },
    seen() {
      const seen = log;
      log = [];
      return seen;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    if (!target) throw new Error('the S3 front has no server to forward to');
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const http: Server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    if (pendingReset && pendingReset.matches(req) && --pendingReset.left === 0) {
      pendingReset = null;
      req.socket.destroy();
      return;
    }
    switch (front.mode) {
      case 'pass':
        return forward(req, res);
      case 'reset':
        return req.socket.destroy();
      case 'error':
        req.resume();
        res.writeHead(500, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
      case 'silent':
        return req.resume();
    }
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return front;
}
