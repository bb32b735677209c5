import { streamNameFor } from '@hoptrack/proto';
import { connectBus, createLogger, type Bus } from '@hoptrack/runtime';
import { readEvents } from '@hoptrack/testing';
import { expectApi, registerUser } from '@hoptrack/testing/api';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 38, item 8: a consumer that fell behind its stream's age repairs its
 * read model instead of silently skipping. The sessions service is stopped
 * (its consumers record where they stood), Ann renames herself and changes
 * her privacy, and the USERS stream loses those events before sessions is
 * back (purged, as 7 days of age would). At its start sessions' people
 * consumer finds the gap (its position is before the stream's first event),
 * asks auth for the changes since (user.changes.requested.v1), and auth
 * announces Ann again: sessions' copy of her ends as she is.
 *
 * The control is the precondition, asserted: after the purge no event in
 * the stream carries her new name, so only the re-announcement can.
 */
let stack: Stack;
let bus: Bus;
let restarted: RunningProcess | undefined;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  const { natsUrl, namespace } = storesOf(stack);
  bus = await connectBus({ url: natsUrl, name: 'rebuild-test', namespace, logger: createLogger('rebuild-test', 'silent') });
});
afterAll(async () => {
  await restarted?.stop();
  await bus?.close();
  await stack?.stop();
});

/** Ann as sessions' people table holds her. */
async function annInSessions(id: string): Promise<{ display_name: string; is_profile_private: boolean } | undefined> {
  const url = storesOf(stack).databaseUrls.find((u) => new URL(u).pathname.slice(1).startsWith('hoptrack_sessions'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ display_name: string; is_profile_private: boolean }>('SELECT display_name, is_profile_private FROM users WHERE id = $1', [id])).rows[0];
  } finally {
    await client.end();
  }
}

describe('a read model whose consumer was away longer than its stream keeps events', () => {
  it('finds the gap at its start, asks its owner again, and ends as the owner is', { timeout: 300_000 }, async () => {
    const ann = await registerUser(stack.baseUrl, 'ann');
    await expect.poll(() => annInSessions(ann.id), { timeout: 60_000 }).toMatchObject({ is_profile_private: false });

    // Sessions goes away; its consumers say where they stood as they stop.
    const sessions = stack.services.sessions;
    await sessions.stop('SIGTERM');

    await expectApi(stack.baseUrl, ann.token, 'PATCH', '/api/me', { displayName: 'Ann Away' }, 200);
    await expectApi(stack.baseUrl, ann.token, 'PUT', '/api/privacy', { isProfilePrivate: true }, 200);
    const stream = streamNameFor(bus.namespace, 'USERS');
    await bus.jsm.streams.purge(stream);
    const stillThere = (await readEvents(bus, 'USERS', 'user.updated.v1')).filter((e) => e.data.id === ann.id);
    expect(stillThere, 'the stream lost her changes: only a re-announcement can bring them').toEqual([]);
    expect(await annInSessions(ann.id)).toMatchObject({ display_name: ann.displayName, is_profile_private: false });

    restarted = await startProcess({ ...sessions.options, readyPath: '/readyz' });
    // Sessions' copy of her follows auth again: the rename and the private switch.
    const said = (proc: RunningProcess | undefined, pattern: RegExp) => (proc?.lines ?? []).filter((l) => pattern.test(l)).slice(-5).join('\n');
    await expect
      .poll(() => annInSessions(ann.id), { timeout: 60_000 })
      .toEqual({ display_name: 'Ann Away', is_profile_private: true })
      .catch((err: unknown) => {
        // What each side said, read once the wait is over.
        const lines = [`at its stop:`, said(sessions, /position|stopp|shut/i), `at its start:`, said(restarted, /missed|position|changes/i), `auth:`, said(stack.services.auth, /announced again|user-changes/i)];
        throw new Error(`${String(err)}\n${lines.join('\n')}`);
      });

    const requests = await readEvents(bus, 'USERS', 'user.changes.requested.v1');
    const fromSessions = requests.filter((e) => e.data.consumer.startsWith('sessions'));
    expect(fromSessions.length, 'sessions asked for the changes').toBeGreaterThan(0);
    const again = (await readEvents(bus, 'USERS', 'user.updated.v1')).filter((e) => e.data.id === ann.id);
    expect(again.at(-1)?.requestId, 'the snapshot came from the request').toBe(fromSessions[0]?.id);
    const missed = restarted.lines.filter((l) => l.includes('consumer missed events'));
    console.info(`[figure] read-model rebuild: sessions restarted after its USERS events were deleted unread; gap found ${missed.length > 0 ? 'yes' : 'no'}, changes asked ${fromSessions.length}, Ann re-announced ${again.length}, sessions' copy current: yes`);
    expect(missed.length).toBeGreaterThan(0);
  });
});
