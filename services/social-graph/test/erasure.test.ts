import { randomUUID } from 'node:crypto';
import type { BlockedUser, EventData, Friend, FriendRequest, MyStats, UserStats } from '@hoptrack/proto';
import { audienceDurables } from '@hoptrack/runtime';
import { consumersSettled, eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noContent, ok } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * Issue 24: on user.deleted.v1 the social graph erases everything of the
 * person (friendships and requests both ways, blocks both ways, pins and
 * mutes with them, session facts, the people row with its e-mail address)
 * and reports user.erased.v1; the others' graph stays whole and consistent.
 */
let social: TestSocial;
beforeAll(async () => {
  // The definition's own session-facts and erasure consumers, beside the people table's.
  social = await startTestSocial({ consumers: ['users', 'sessions', 'erasure'] });
});
afterAll(async () => {
  await social?.close();
});

const durables = () => [
  { stream: 'USERS' as const, durable: audienceDurables(social.config.READ_MODEL_CONSUMER).people.durable },
  { stream: 'USERS' as const, durable: `${social.config.READ_MODEL_CONSUMER}-erasure` },
  { stream: 'SESSIONS' as const, durable: social.config.SESSIONS_CONSUMER },
];
const settled = () => consumersSettled(social.bus, durables());

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every row of every table of the service's database whose text holds one of the needles. */
async function rowsNaming(...needles: string[]): Promise<string[]> {
  const tables = await social.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name !~ 'migrations$' ORDER BY 1`,
  );
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'friendships', 'blocked_users', 'session_facts', 'outbox', 'erased_people']));
  const hits: string[] = [];
  for (const { name } of tables) {
    const rows = await social.prisma.$queryRawUnsafe<Array<{ row: string }>>(`SELECT t::text AS row FROM "${name}" t WHERE t::text ILIKE ANY($1::text[])`, needles.map(like));
    hits.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return hits;
}

/** How many rows each table holds: a replay must change none. */
async function tableSizes(): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const name of ['users', 'friendships', 'blocked_users', 'session_facts', 'outbox', 'erased_people']) {
    const [row] = await social.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}"`);
    sizes[name] = row?.n ?? 0;
  }
  return sizes;
}

const erasedReports = async (userId: string) =>
  (await readEvents(social.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'social-graph');

const session = (user: TestUser, beerCount: number): EventData<'session.created.v1'> => {
  const at = new Date().toISOString();
  return { sessionId: randomUUID(), userId: user.id, beerCount, duration: 60, title: 'Pints', beerTypes: [], location: null, hasMusic: false, createdAt: at, updatedAt: at };
};

const friendsOf = async (me: TestUser, url = '/api/friends') => ok<Friend[]>(await social.as(me).get(url));

describe('erasing a deleted account', () => {
  it('removes every row naming the person, keeps the others whole, and neither a replay nor a late event brings anything back', async () => {
    const [gone, ann, bob, cat, dan] = [await social.user(), await social.user(), await social.user(), await social.user(), await social.user()];
    // Friendships both ways, with pins and mutes on each side.
    await social.befriend(gone, ann);
    await social.befriend(ann, cat);
    await social.befriend(ann, bob);
    noContent(await social.as(ann).post(`/api/friends/${gone.id}/pin`, {}));
    noContent(await social.as(ann).post(`/api/friends/${cat.id}/pin`, {}));
    noContent(await social.as(ann).post(`/api/friends/${bob.id}/pin`, {}));
    noContent(await social.as(ann).post(`/api/friends/${gone.id}/mute`));
    noContent(await social.as(gone).post(`/api/friends/${ann.id}/pin`, {}));
    noContent(await social.as(gone).post(`/api/friends/${ann.id}/mute`));
    // Requests both ways, blocks both ways.
    expect((await social.as(gone).post('/api/friendships', { friendId: bob.id })).statusCode).toBe(201);
    expect((await social.as(cat).post('/api/friendships', { friendId: gone.id })).statusCode).toBe(201);
    noContent(await social.as(gone).post(`/api/friends/${dan.id}/block`, { reason: 'spam' }));
    noContent(await social.as(bob).post(`/api/friends/${dan.id}/block`, {}));
    // Session facts of the person and of others.
    for (const facts of [session(gone, 4), session(gone, 2), session(ann, 3)]) await publishEvent(social.bus, 'session.created.v1', facts);
    await settled();
    await social.relay.drain();
    await eventually(async () => (await social.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox published');

    const needles = [gone.id, gone.email, gone.username];
    expect((await rowsNaming(...needles)).length).toBeGreaterThan(5);
    expect(await social.prisma.sessionFact.count({ where: { userId: gone.id } })).toBe(2);
    // Bob's counts: Ann and Gone's request follow him.
    expect(ok<UserStats>(await social.as(cat).get(`/api/users/${bob.id}/stats`))).toMatchObject({ followersCount: 2, followingCount: 1 });

    await publishEvent(social.bus, 'user.deleted.v1', { userId: gone.id });
    await eventually(async () => (await erasedReports(gone.id)).length === 1, 'user.erased.v1 from social-graph');
    await settled();

    expect(await rowsNaming(...needles)).toEqual([]);

    // Ann's graph: Gone is out of her friends and pins, her other pins numbered again from 0.
    const annFriends = await friendsOf(ann);
    expect(annFriends.map((f) => f.id).sort()).toEqual([bob.id, cat.id].sort());
    expect((await friendsOf(ann, '/api/friends/pinned')).map((f) => [f.id, f.pinnedOrder])).toEqual([
      [cat.id, 0],
      [bob.id, 1],
    ]);
    expect(ok<MyStats>(await social.as(ann).get('/api/me/stats'))).toMatchObject({ friendsCount: 2, followersCount: 2, followingCount: 2, totalSessions: 1, weeklyTotal: 3 });
    // Cat: her friendship with Ann stands, her request to Gone is gone.
    expect((await friendsOf(cat)).map((f) => f.id)).toEqual([ann.id]);
    expect(ok<FriendRequest[]>(await social.as(bob).get('/api/friends/requests'))).toEqual([]);
    // Bob's own block stays; Dan was blocked by Gone, now by Bob only.
    expect(ok<BlockedUser[]>(await social.as(bob).get('/api/friends/blocked')).map((b) => b.id)).toEqual([dan.id]);
    expect(await social.prisma.blockedUser.count({ where: { blockedId: dan.id } })).toBe(1);
    // Gone's request counted among Bob's followers; it is gone from the count as from the list.
    expect(ok<UserStats>(await social.as(cat).get(`/api/users/${bob.id}/stats`))).toMatchObject({ followersCount: 1, followingCount: 1 });
    // The person is unknown here now.
    expect((await social.as(ann).get(`/api/users/${gone.id}`)).statusCode).toBe(404);
    expect(await social.prisma.sessionFact.count({ where: { userId: ann.id } })).toBe(1);

    // The deletion again (a new envelope): reported again, nothing changes.
    const sizes = await tableSizes();
    await publishEvent(social.bus, 'user.deleted.v1', { userId: gone.id });
    await eventually(async () => (await erasedReports(gone.id)).length === 2, 'second user.erased.v1');
    await settled();
    expect(await tableSizes()).toEqual(sizes);

    // Late events about the person (published before the deletion, delivered after): nothing comes back.
    await publishEvent(social.bus, 'session.created.v1', session(gone, 9));
    await publishEvent(social.bus, 'user.updated.v1', { ...gone.snapshot, displayName: 'Back again', updatedAt: new Date(Date.now() + 60_000).toISOString() });
    await settled();
    expect(await rowsNaming(...needles)).toEqual([]);
    expect(await tableSizes()).toEqual(sizes);
    // A request to them now finds nobody.
    expect((await social.as(ann).post('/api/friendships', { friendId: gone.id })).statusCode).toBe(404);
    expect(await rowsNaming(...needles)).toEqual([]);
  });
});
