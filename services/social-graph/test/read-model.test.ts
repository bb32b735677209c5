import { audienceDurables } from '@hoptrack/runtime';
import { randomUUID } from 'node:crypto';
import { memoryLogger, readEvents, testUserSnapshot } from '@hoptrack/testing';
import type { EventEnvelope, OtherUser, UserSnapshot } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsersConsumer } from '../src/consumers/users.consumer';
import { expectError, ok } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * The users read model, fed by auth's user.registered.v1 / user.updated.v1:
 * idempotent by event id (inbox) and by snapshot age (newer wins).
 */
let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

type UserEvent = EventEnvelope<'user.registered.v1' | 'user.updated.v1'>;
const envelope = (type: UserEvent['type'], data: UserSnapshot, id = randomUUID()): UserEvent => ({ id, type, occurredAt: new Date().toISOString(), data });
const later = (snapshot: UserSnapshot, ms: number) => new Date(new Date(snapshot.updatedAt).getTime() + ms).toISOString();

const snapshotOf = async (id: string) => {
  const row = await social.prisma.user.findUnique({ where: { id } });
  if (!row) return null;
  // A row at version 0 holds a snapshot published before versions, which carries none.
  const { version, ...rest } = row;
  return { ...rest, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), ...(version > 0 ? { version } : {}) };
};
const usersTable = async () => (await social.prisma.user.findMany({ orderBy: { id: 'asc' } })).map((u) => ({ ...u }));


/**
 * A snapshot as the table keeps it: events from before issue 40 carry no
 * showEmailToFriends, which the read model stores as off (the default).
 */
const stored = (snapshot: UserSnapshot): UserSnapshot => ({ showEmailToFriends: false, ...snapshot });

describe('applying user events', () => {
  it('stores a registered user field by field', async () => {
    const user = await social.user({ private: true, displayName: 'Read Model' });
    expect(await snapshotOf(user.id)).toEqual(stored(user.snapshot));
  });

  it('applies an update: the profile others see follows it', async () => {
    const [viewer, user] = await Promise.all([social.user(), social.user()]);
    expect(ok<OtherUser>(await social.as(viewer).get(`/api/users/${user.id}`))).toMatchObject({ canViewDetails: true, bio: user.snapshot.bio });
    await social.updateUser(user, { isProfilePrivate: true, displayName: 'Renamed', bio: 'new bio' });
    expect(await snapshotOf(user.id)).toEqual(stored(user.snapshot));
    expect(ok<OtherUser>(await social.as(viewer).get(`/api/users/${user.id}`))).toMatchObject({
      displayName: 'Renamed',
      isProfilePrivate: true,
      canViewDetails: false,
      bio: null,
    });
    expect(ok<OtherUser>(await social.as(user).get(`/api/users/${user.id}`))).toMatchObject({ bio: 'new bio', canViewDetails: true });
  });

  it('keeps the newer snapshot when an older one arrives later, under a new event id', async () => {
    const user = await social.user();
    const stale = { ...user.snapshot, displayName: 'Stale name' };
    await social.updateUser(user, { displayName: 'Current name', bio: 'current' });
    await social.publishRaw(envelope('user.updated.v1', stale));
    await social.publishRaw(envelope('user.registered.v1', stale));
    await social.settle();
    expect(await snapshotOf(user.id)).toEqual(stored(user.snapshot));
  });

  it('keeps the newer snapshot when events of a new user arrive out of order', async () => {
    const first = testUserSnapshot(randomUUID(), { email: `ooo${Date.now()}@example.com`, username: `ooo_${Date.now()}`, displayName: 'First' });
    const second = { ...first, displayName: 'Second', isProfilePrivate: true, updatedAt: later(first, 1000) };
    await social.publishRaw(envelope('user.updated.v1', second));
    await social.publishRaw(envelope('user.registered.v1', first));
    await social.settle();
    expect(await snapshotOf(first.id)).toEqual(stored(second));
  });

  it('skips a redelivered event by its id, whatever it carries', async () => {
    const user = await social.user();
    const [registered] = (await readEvents(social.bus, 'USERS', 'user.registered.v1')).filter((e) => e.data.id === user.id);
    if (!registered) throw new Error('registration not on the stream');
    // The same event id again (a new msg id, or JetStream would drop it as a duplicate), altered so a re-apply would show.
    await social.publishRaw({ ...registered, data: { ...registered.data, displayName: 'Applied twice', updatedAt: later(registered.data, 5000) } }, randomUUID());
    // The exact same envelope, too.
    await social.publishRaw(registered, randomUUID());
    await social.settle();
    expect(await snapshotOf(user.id)).toEqual(stored(user.snapshot));
    const processed = await social.prisma.processedEvent.count({ where: { consumer: audienceDurables(social.config.READ_MODEL_CONSUMER).people.durable, eventId: registered.id } });
    expect(processed).toBe(1);
  });
});

describe('replaying the whole USERS stream', () => {
  it('changes nothing: a new durable consumer re-reads every event and the users table stays as it was', async () => {
    // A history with updates, stale copies and redeliveries on the stream.
    const users: TestUser[] = [];
    for (let i = 0; i < 4; i++) users.push(await social.user({ private: i % 2 === 0 }));
    const [u0, u1, u2] = users as [TestUser, TestUser, TestUser];
    const oldSnapshot = { ...u0.snapshot };
    await social.updateUser(u0, { displayName: 'Zero v2' });
    await social.updateUser(u0, { bio: 'zero bio v3', tokenVersion: 1 });
    await social.updateUser(u1, { isProfilePrivate: true });
    await social.publishRaw(envelope('user.updated.v1', { ...oldSnapshot, displayName: 'Zero stale' })); // new id, older updatedAt
    const stream = await readEvents(social.bus, 'USERS', 'user.registered.v1');
    const u2Registered = stream.find((e) => e.data.id === u2.id);
    if (!u2Registered) throw new Error('registration not on the stream');
    await social.publishRaw({ ...u2Registered, data: { ...u2.snapshot, displayName: 'Redelivered', updatedAt: later(u2.snapshot, 9000) } }, randomUUID());
    await social.settle();

    const before = await usersTable();
    expect(before.find((u) => u.id === u0.id)).toMatchObject({ displayName: 'Zero v2', bio: 'zero bio v3', tokenVersion: 1 });
    expect(before.find((u) => u.id === u2.id)?.displayName).toBe(u2.displayName);

    const durable = `replay-${randomUUID().slice(0, 8)}`;
    const replay = await startUsersConsumer({ bus: social.bus, prisma: social.prisma, durable, logger: memoryLogger('replay').logger });
    try {
      await social.settle(audienceDurables(durable).people.durable);
    } finally {
      await replay.stop();
    }
    expect(await usersTable()).toEqual(before);
    // The replay saw every distinct event once (the redelivered id once).
    const distinct = new Set((await readEvents(social.bus, 'USERS')).map((e) => e.id));
    expect(await social.prisma.processedEvent.count({ where: { consumer: audienceDurables(durable).people.durable } })).toBe(distinct.size);
  });
});

describe('token versions', () => {
  it('refuses a token older than the version the read model knows (after a password reset)', async () => {
    const user = await social.user();
    const oldToken = user.token;
    ok(await social.as(user).get('/api/friends'));
    await social.updateUser(user, { tokenVersion: 2 });
    expectError(await social.as({ ...user, token: oldToken }).get('/api/friends'), 401, { message: 'Invalid or expired token' });
    expectError(await social.as({ ...user, token: await social.signToken(user.id, 1) }).get('/api/me/stats'), 401);
    ok(await social.as({ ...user, token: await social.signToken(user.id, 2) }).get('/api/friends'));
    ok(await social.as({ ...user, token: await social.signToken(user.id, 3) }).get('/api/friends'));
  });

  it('lets in a valid token of a user the read model has not heard of yet (events lag)', async () => {
    const token = await social.signToken(randomUUID(), 0);
    expect(ok(await social.app.inject({ method: 'GET', url: '/api/friends', headers: { authorization: `Bearer ${token}` } }))).toEqual([]);
  });
});
