import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, type RunningProcess } from '@hoptrack/testing/processes';
import { rateLimitPrefix } from './support';

/**
 * The gateway in front of several instances of one service: it balances over
 * those whose /readyz answers 200, leaves one out while it drains, and sends a
 * request again to another instance only when the first could not have acted
 * on it. The instances are stand-ins that record what reached them, so the test
 * can count where each request went and whether any was delivered twice.
 */
interface Instance {
  name: string;
  port: number;
  url: string;
  server: Server;
  /** What /readyz answers. */
  readiness: number;
  /** 'answer' serves; 'reset' takes the request and drops the connection without a word. */
  mode: 'answer' | 'reset';
  received: Array<{ method: string; url: string; body: string }>;
  sockets: Set<Socket>;
  /** The connections /readyz polls came on, and how many polls. */
  readinessSockets: Set<Socket>;
  readinessPolls: number;
}

async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const instance: Instance = { name, port, url: `http://127.0.0.1:${port}`, server: createServer(), readiness: 200, mode: 'answer', received: [], sockets: new Set(), readinessSockets: new Set(), readinessPolls: 0 };
  instance.server.on('connection', (socket: Socket) => {
    instance.sockets.add(socket);
    socket.once('close', () => instance.sockets.delete(socket));
  });
  instance.server.on('request', (req: IncomingMessage, res) => {
    if (req.url === '/readyz') {
      instance.readinessSockets.add(req.socket);
      instance.readinessPolls += 1;
      res.writeHead(instance.readiness, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      instance.received.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString() });
      if (instance.mode === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ instance: name }));
    });
  });
  await listen(instance);
  return instance;
}

const listen = (instance: Instance) => new Promise<void>((resolve) => instance.server.listen(instance.port, '127.0.0.1', resolve));
const closeInstance = (instance: Instance) =>
  new Promise<void>((resolve) => {
    for (const socket of instance.sockets) socket.destroy();
    instance.server.close(() => resolve());
  });

/** Lines the gateway logged about an instance leaving or joining the rotation. */
const rotationLines = (gateway: RunningProcess, instance: Instance, inRotation: boolean) =>
  gateway.lines.filter((line) => line.includes(instance.url) && line.includes(inRotation ? 'back in rotation' : 'out of rotation'));

describe('gateway → several instances of a service', () => {
  let a: Instance;
  let b: Instance;
  let gateway: RunningProcess;

  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
    gateway = await startGateway({
      env: {
        // Both instances of "places", as REPLICAS=2 and compose list them.
        PLACES_SERVICE_URL: `${a.url},${b.url}`,
        GATEWAY_READINESS_INTERVAL_MS: '100',
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('balancing'),
        GATEWAY_RATE_LIMIT_MAX: '100000',
        WEB_DIST_DIR: '',
      },
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([a, b].filter(Boolean).map(closeInstance));
  });

  beforeEach(async () => {
    for (const instance of [a, b]) {
      instance.readiness = 200;
      instance.mode = 'answer';
      if (!instance.server.listening) await listen(instance);
    }
    // Both in rotation again before each case.
    await expect.poll(() => sendMany(10).then((answers) => new Set(answers.map((x) => x.instance)).size), { timeout: CONDITION_BOUND_MS }).toBe(2);
    a.received = [];
    b.received = [];
  });

  /** A POST the places contracts route (any of its contracts would do: the instances here answer every path). */
  const POST_PATH = '/api/bars/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/reviews';
  const get = async (path = '/api/bars') => {
    const res = await fetch(`${gateway.url}${path}`);
    return { status: res.status, instance: ((await res.json()) as { instance?: string }).instance };
  };
  const sendMany = (n: number) => Promise.all(Array.from({ length: n }, () => get()));
  const post = async (body: object) => {
    const res = await fetch(`${gateway.url}${POST_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, instance: ((await res.json()) as { instance?: string }).instance };
  };

  it('polls readiness over a kept-alive connection, not a new one each time', async () => {
    b.readinessSockets.clear();
    b.readinessPolls = 0;
    await expect.poll(() => b.readinessPolls, { timeout: CONDITION_BOUND_MS }).toBeGreaterThanOrEqual(10);
    // Ten polls, one connection (a second one at most, when a poll overlapped the previous).
    expect(b.readinessSockets.size).toBeLessThanOrEqual(2);
  });

  it('spreads requests over every ready instance', async () => {
    const answers = await sendMany(40);
    expect(answers.every((x) => x.status === 200)).toBe(true);
    expect(a.received.length).toBeGreaterThan(0);
    expect(b.received.length).toBeGreaterThan(0);
    expect(a.received.length + b.received.length).toBe(40);
  });

  it('takes an instance whose readiness fails out of the rotation, and back when it recovers', async () => {
    a.readiness = 503; // draining before a restart
    await expect.poll(() => rotationLines(gateway, a, false).length, { timeout: CONDITION_BOUND_MS }).toBeGreaterThan(0);
    a.received = [];
    const answers = await sendMany(30);
    expect(answers.every((x) => x.status === 200 && x.instance === 'b')).toBe(true);
    expect(a.received).toEqual([]);

    const joinedBefore = rotationLines(gateway, a, true).length;
    a.readiness = 200;
    await expect.poll(() => rotationLines(gateway, a, true).length, { timeout: CONDITION_BOUND_MS }).toBeGreaterThan(joinedBefore);
    await sendMany(20);
    expect(a.received.length).toBeGreaterThan(0);
  });

  it('sends a request that found an instance gone to another one, whatever its method, exactly once', async () => {
    // A gateway whose next readiness poll is far away: only the failed connection can tell it.
    const unaware = await startGateway({
      env: {
        PLACES_SERVICE_URL: `${a.url},${b.url}`,
        GATEWAY_READINESS_INTERVAL_MS: '600000',
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('balancing-unaware'),
        WEB_DIST_DIR: '',
      },
    });
    try {
      await closeInstance(a); // stopped since the poll: the gateway still counts it ready
      a.received = [];
      b.received = [];
      const bodies = Array.from({ length: 12 }, (_, i) => ({ name: `bar ${i}` }));
      const answers = await Promise.all(
        bodies.map(async (body) => {
          const res = await fetch(`${unaware.url}${POST_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          return res.status;
        }),
      );
      expect(answers).toEqual(bodies.map(() => 200));
      // Every body arrived whole, once, at the instance still running.
      const byName = (x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name);
      expect(b.received.map((r) => JSON.parse(r.body) as { name: string }).sort(byName)).toEqual([...bodies].sort(byName));
      // Its log line may reach us after the answers (the gateway writes logs asynchronously): wait for it.
      await expect.poll(() => unaware.lines.filter((line) => line.includes('retrying on another instance')).length).toBeGreaterThan(0);
    } finally {
      await unaware.stop();
    }
  });

  it('does not send again a POST the instance may have acted on; an idempotent GET it does', async () => {
    a.mode = 'reset';
    b.mode = 'reset';
    const posted = await post({ name: 'once only' });
    expect(posted.status).toBe(502);
    // It reached one instance and was not sent on to the other.
    expect(a.received.length + b.received.length).toBe(1);

    a.received = [];
    b.received = [];
    b.mode = 'answer';
    a.mode = 'reset';
    // Whichever instance a GET meets first, it ends answered by b: tried at most twice.
    const answers = await sendMany(10);
    expect(answers.every((x) => x.status === 200 && x.instance === 'b')).toBe(true);
    expect(a.received.length).toBeLessThanOrEqual(10);
    expect(b.received.length).toBe(10);
  });
});
