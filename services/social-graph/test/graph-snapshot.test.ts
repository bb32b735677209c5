import { graphHandlers, pgSqlClient, rebuildGraph, type SqlClient } from '@hoptrack/runtime';
import { eventSchemas, type EventType } from '@hoptrack/proto';
import { memoryLogger } from '@hoptrack/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphSnapshotPage } from '../src/repositories/graph-snapshot.repository';
import { noContent, ok } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * The graph a read model rebuilds from when its consumer missed events
 * (issue 38, item 8; runtime audience/graph-snapshot.ts): social-graph
 * serves its tables over NATS request/reply, and a copy rebuilt from them
 * equals the copy the other services build from the SOCIAL events — for a
 * graph made through the API of requests, acceptances, refusals, ended
 * friendships, blocks, unblocks and mutes.
 */
let social: TestSocial;
/** Two copies of the audience's graph tables, in schemas of their own: built from the events, rebuilt from the snapshot. */
const COPIES = ['graph_from_events', 'graph_from_snapshot'] as const;
const pools: Partial<Record<(typeof COPIES)[number], pg.Pool>> = {};

beforeAll(async () => {
  social = await startTestSocial({ consumers: ['users', 'graphSnapshot'] });
  const url = social.config.DATABASE_URL;
  for (const schema of COPIES) {
    await social.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await social.prisma.$executeRawUnsafe(`CREATE SCHEMA ${schema}`);
    for (const ddl of [
      `CREATE TABLE ${schema}.follows (follower_id uuid NOT NULL, followee_id uuid NOT NULL, is_friend boolean NOT NULL DEFAULT false, PRIMARY KEY (follower_id, followee_id))`,
      `CREATE TABLE ${schema}.blocks (blocker_id uuid NOT NULL, blocked_id uuid NOT NULL, PRIMARY KEY (blocker_id, blocked_id))`,
      `CREATE TABLE ${schema}.mutes (user_id uuid NOT NULL, muted_id uuid NOT NULL, PRIMARY KEY (user_id, muted_id))`,
    ])
      await social.prisma.$executeRawUnsafe(ddl);
    // The copy's tables first on the path: the audience's unqualified statements land there.
    const withPath = new URL(url);
    withPath.searchParams.set('options', `-c search_path=${schema}`);
    withPath.searchParams.delete('schema');
    pools[schema] = new pg.Pool({ connectionString: withPath.toString(), max: 2 });
  }
});
afterAll(async () => {
  for (const pool of Object.values(pools)) await pool.end();
  await social?.close();
});

const db = (schema: (typeof COPIES)[number]) => pgSqlClient(pools[schema] as pg.Pool);

/** A copy's tables, sorted: what two copies are compared by. */
async function graphOf(client: SqlClient): Promise<{ follows: string[]; blocks: string[]; mutes: string[] }> {
  const rows = (query: string) => client.$queryRawUnsafe<Array<{ e: string }>>(query).then((r) => r.map((x) => x.e).sort());
  return {
    follows: await rows(`SELECT follower_id || '>' || followee_id || CASE WHEN is_friend THEN ' friend' ELSE '' END AS e FROM follows`),
    blocks: await rows(`SELECT blocker_id || '>' || blocked_id AS e FROM blocks`),
    mutes: await rows(`SELECT user_id || '>' || muted_id AS e FROM mutes`),
  };
}

const api = (by: TestUser) => social.as(by);

describe("a graph read model rebuilt from social-graph's tables", () => {
  it('equals the copy built from the events, page by page, for every kind of change', { timeout: 60_000 }, async () => {
    const [a, b, c, d, e, f] = await Promise.all(Array.from({ length: 6 }, () => social.user()));
    if (!a || !b || !c || !d || !e || !f) throw new Error('six people');
    await social.befriend(a, b);
    await social.befriend(a, c);
    await social.befriend(d, e);
    noContent(await api(a).post(`/api/friends/${b.id}/mute`));
    noContent(await api(d).post(`/api/friends/${e.id}/mute`));
    noContent(await api(d).delete(`/api/friends/${e.id}/mute`));
    // Ended: a friendship (unfriended), one by a block; a request refused; one pending.
    noContent(await api(a).delete(`/api/friends/${c.id}`));
    noContent(await api(b).post(`/api/friends/${e.id}/block`));
    noContent(await api(f).post(`/api/friends/${a.id}/block`));
    noContent(await api(f).delete(`/api/friends/${a.id}/block`));
    noContent(await api(c).post(`/api/friends/${d.id}/block`));
    const refused = ok<{ id: string }>(await api(e).post('/api/friendships', { friendId: f.id }), 201);
    ok(await api(f).patch(`/api/friendships/${refused.id}`, { action: 'reject' }));
    ok(await api(f).post('/api/friendships', { friendId: b.id }), 201);

    // The copy the events build, as every service's audience consumer applies them.
    const events = await social.events();
    expect(events.length).toBeGreaterThan(10);
    const fromEvents = db('graph_from_events');
    for (const event of events) {
      const handler = (graphHandlers as Record<string, ((data: unknown, tx: SqlClient) => Promise<void>) | undefined>)[event.type];
      if (handler) await handler(eventSchemas[event.type as EventType].parse(event.data), fromEvents);
    }

    // The copy the snapshot rebuilds, over the bus from the service's graphSnapshot responder;
    // it starts with a stale edge, which the rebuild must drop.
    const fromSnapshot = db('graph_from_snapshot');
    await fromSnapshot.$executeRawUnsafe(`INSERT INTO follows VALUES ('${a.id}', '${c.id}', true), ('${c.id}', '${a.id}', true)`);
    const written = await rebuildGraph({ bus: social.bus, db: fromSnapshot, logger: memoryLogger('rebuild').logger, tombstones: false });

    const expected = await graphOf(fromEvents);
    expect(await graphOf(fromSnapshot)).toEqual(expected);
    expect(written).toEqual({ follows: expected.follows.length, blocks: expected.blocks.length, mutes: expected.mutes.length });
    // What the graph is, in words: a–b friends (a muted b), d–e friends (d's mute taken back), f asked b;
    // a–c ended, e's request to f refused, f's block of a taken back, b blocked e and c blocked d.
    expect(expected.follows).toEqual([`${a.id}>${b.id} friend`, `${b.id}>${a.id} friend`, `${d.id}>${e.id} friend`, `${e.id}>${d.id} friend`, `${f.id}>${b.id}`].sort());
    expect(expected.blocks).toEqual([`${b.id}>${e.id}`, `${c.id}>${d.id}`].sort());
    expect(expected.mutes).toEqual([`${a.id}>${b.id}`]);

    // Pages: two edges at a time give the same five edges in three pages, in pair order, the last one saying so.
    const paged: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await graphSnapshotPage(social.prisma, { kind: 'follows', after, limit: 2 });
      paged.push(...page.edges.map(([from, to, friend]) => `${from}>${to}${friend ? ' friend' : ''}`));
      after = page.next;
      pages += 1;
    } while (after !== null);
    expect(paged).toEqual(expected.follows.slice().sort((x, y) => (x < y ? -1 : 1)));
    expect(pages).toBe(3);
  });
});
