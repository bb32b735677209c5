import { connectBus, deleteStreams, ensureStreams, type Bus } from '@hoptrack/runtime';
import { eventually, memoryLogger, readEvents, testNamespace } from '@hoptrack/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess } from '@hoptrack/testing/processes';
import { databaseUrl, testEnv, uniqueUser } from './support';

/**
 * Issue 9, item 1: the auth process SIGKILLed again and again while people
 * register, at whatever point each request has reached — before the commit,
 * between the commit and the publish, after both. Afterwards every committed
 * account is announced exactly once, and every acknowledged one exists.
 */
const LIVES = Number(process.env.CRASH_LIVES ?? 5);
const namespace = testNamespace('crashloop');
let bus: Bus;

beforeAll(async () => {
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'crash-loop', namespace, logger: memoryLogger('test').logger });
  await ensureStreams(bus, ['USERS']);
});
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
});

describe(`auth SIGKILLed ${LIVES} times under registrations`, () => {
  // Six process starts (tsx compiles the service on a cold cache in CI) and five lives, each
  // lasting until its first acknowledged registration and up to 1.5 s more: minutes on a busy box.
  it('announces every committed account exactly once, and keeps every acknowledged one', { timeout: 600_000 }, async () => {
    const acknowledged: string[] = [];
    const attempted: string[] = [];
    for (let life = 0; life < LIVES; life++) {
      const proc = await startProcess({ name: `auth-${life}`, entry: 'services/auth/src/server.ts', port: await freePort(), env: testEnv(namespace, { LOG_LEVEL: 'warn', OUTBOX_POLL_MS: '50' }) });
      // A stream of registrations, and the kill at a random moment in the middle of it. The
      // moment is counted from this life's first acknowledged registration, not from the clock:
      // on a busy machine the first hashes can take seconds, and a kill before any answer
      // would test nothing that is acknowledged (the figure 'acknowledged accounts lost').
      const inFlight: Array<Promise<void>> = [];
      let answered!: () => void;
      const firstAcknowledged = new Promise<void>((resolve) => (answered = resolve));
      let killing = false;
      const sending = (async () => {
        while (!killing) {
          const user = uniqueUser();
          attempted.push(user.email);
          inFlight.push(
            fetch(`${proc.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })
              .then((res) => {
                if (res.status !== 201) return;
                acknowledged.push(user.email);
                answered();
              })
              .catch(() => undefined),
          );
          await new Promise((r) => setTimeout(r, 60));
        }
      })();
      // A bound only for a service that never answers (then the test fails and says so).
      let giveUp: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        giveUp = setTimeout(() => reject(new Error(`life ${life}: no registration acknowledged in 90 s`)), 90_000);
      });
      try {
        await Promise.race([firstAcknowledged, stuck]);
        await new Promise((r) => setTimeout(r, Math.random() * 1500));
      } finally {
        clearTimeout(giveUp);
        killing = true;
        await sending;
      }
      await proc.stop('SIGKILL');
      await Promise.all(inFlight);
    }

    // A last life with nobody killing it: its relay publishes whatever the dead ones committed and left.
    const last = await startProcess({ name: 'auth-last', entry: 'services/auth/src/server.ts', port: await freePort(), env: testEnv(namespace, { LOG_LEVEL: 'warn' }) });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const committed = (await db.query<{ email: string }>('SELECT email FROM users WHERE email = ANY($1)', [attempted])).rows.map((r) => r.email);
      const announced = async () => (await readEvents(bus, 'USERS', 'user.registered.v1')).map((e) => e.data.email).filter((email) => attempted.includes(email));
      await eventually(async () => (await announced()).length >= committed.length, 'every committed account announced').catch(() => undefined);
      const events = await announced();
      const lostEvents = committed.filter((email) => !events.includes(email));
      const doubled = events.length - new Set(events).size;
      const lostAccounts = acknowledged.filter((email) => !committed.includes(email));
      console.info(
        `[figure] auth SIGKILLed ${LIVES} times under registrations: ${attempted.length} attempted, ${acknowledged.length} acknowledged, ${committed.length} committed; events lost ${lostEvents.length}, published twice ${doubled}, acknowledged accounts lost ${lostAccounts.length}`,
      );
      // Each life waited for its first acknowledged registration before its kill.
      expect(acknowledged.length).toBeGreaterThanOrEqual(LIVES);
      expect(lostEvents).toEqual([]);
      expect(doubled).toBe(0);
      expect(lostAccounts).toEqual([]);
      // Nothing was announced that was never committed.
      expect(events.filter((email) => !committed.includes(email))).toEqual([]);
    } finally {
      await db.end();
      await last.stop();
    }
  });
});
