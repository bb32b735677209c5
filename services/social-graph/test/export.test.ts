import { randomUUID } from 'node:crypto';
import { exportPart, type ExportPart } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noContent } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 the social graph writes its
 * part (friends, pending requests both ways, blocks made, mutes, pins in
 * order, stats) to the exports object store and reports
 * user.export.contributed.v1. Others appear by id, username and display name
 * only; a request asked again overwrites the part.
 */
let social: TestSocial;
beforeAll(async () => {
  // The definition's own session-facts consumer (the stats) and export part, beside the people table's.
  social = await startTestSocial({ consumers: ['users', 'sessions', 'export'] });
});
afterAll(async () => {
  await social?.close();
});

const reports = async (exportId: string) =>
  (await readEvents(social.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'social-graph');

/** Asks for the person's export and waits for the n-th report of this part; answers the part as stored. */
async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(social.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from social-graph`);
  const blob = await (await exportParts(social.bus)).getBlob(exportPartName(exportId, 'social-graph'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

const card = (u: TestUser) => ({ id: u.id, username: u.username, displayName: u.displayName });

interface GraphPart {
  friends: Array<{ id: string; username: string; displayName: string; friendsSince: string; isPinned: boolean; pinnedOrder: number | null; isMuted: boolean }>;
  friendRequests: { sent: Array<{ to: { id: string } }>; received: Array<{ from: { id: string } }> };
  blocks: Array<{ user: { id: string }; reason: string | null; blockedAt: string }>;
  mutes: Array<{ id: string }>;
  pins: Array<{ place: number; id: string }>;
  stats: Record<string, number>;
}

describe('the social graph part of a data export', () => {
  it('holds the person’s friends, requests, blocks, mutes, pins and stats, nothing of anyone else’s graph, and a repeated request overwrites it', async () => {
    const [me, ann, bob, cat, dan, eve, other] = await Promise.all([social.user(), social.user(), social.user(), social.user(), social.user(), social.user(), social.user()]);
    await social.befriend(me, ann);
    await social.befriend(bob, me);
    await social.befriend(me, cat);
    noContent(await social.as(me).post(`/api/friends/${cat.id}/pin`, {}));
    noContent(await social.as(me).post(`/api/friends/${ann.id}/pin`, {}));
    noContent(await social.as(me).post(`/api/friends/${bob.id}/mute`));
    expect((await social.as(me).post('/api/friendships', { friendId: dan.id })).statusCode).toBe(201);
    expect((await social.as(eve).post('/api/friendships', { friendId: me.id })).statusCode).toBe(201);
    noContent(await social.as(me).post(`/api/friends/${other.id}/block`, { reason: 'spam' }));
    // Someone else's graph: their friendships, pins, mutes, blocks, and a block against the person.
    await social.befriend(other, ann);
    noContent(await social.as(ann).post(`/api/friends/${me.id}/pin`, {}));
    noContent(await social.as(ann).post(`/api/friends/${me.id}/mute`));
    noContent(await social.as(dan).post(`/api/friends/${eve.id}/block`, { reason: 'theirs' }));
    const at = new Date().toISOString();
    await publishEvent(social.bus, 'session.created.v1', {
      sessionId: randomUUID(), userId: me.id, beerCount: 3, duration: 90, title: 'Pints', beerTypes: [], location: null, hasMusic: false, createdAt: at, updatedAt: at,
    });
    await eventually(async () => (await social.prisma.sessionFact.count({ where: { userId: me.id } })) === 1, 'session fact');

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('social-graph');
    expect(part.files).toEqual([]);
    const data = part.data as GraphPart;
    expect(Object.keys(data).sort()).toEqual(['blocks', 'friendRequests', 'friends', 'mutes', 'pins', 'stats']);
    expect(data.friends.map((f) => f.id).sort()).toEqual([ann.id, bob.id, cat.id].sort());
    expect(data.friends.find((f) => f.id === ann.id)).toMatchObject({ ...card(ann), isPinned: true, pinnedOrder: 1, isMuted: false });
    expect(data.friends.find((f) => f.id === bob.id)).toMatchObject({ ...card(bob), isPinned: false, pinnedOrder: null, isMuted: true });
    for (const f of data.friends) expect(new Date(f.friendsSince).toISOString()).toBe(f.friendsSince);
    expect(data.friendRequests).toEqual({
      sent: [{ id: expect.any(String), to: card(dan), sentAt: expect.any(String) }],
      received: [{ id: expect.any(String), from: card(eve), receivedAt: expect.any(String) }],
    });
    expect(data.blocks).toEqual([{ user: card(other), reason: 'spam', blockedAt: expect.any(String) }]);
    expect(data.mutes).toEqual([card(bob)]);
    expect(data.pins).toEqual([
      { place: 0, ...card(cat) },
      { place: 1, ...card(ann) },
    ]);
    expect(data.stats).toEqual({ friendsCount: 3, followersCount: 4, followingCount: 4, totalSessions: 1, totalHours: 1.5, weeklyTotal: 3 });
    // Nothing of the others beyond names: no e-mail, no bio, not their own pins, mutes, blocks or friendships.
    const text = JSON.stringify(part);
    for (const u of [ann, bob, cat, dan, eve, other]) {
      expect(text).not.toContain(u.email);
      expect(text).not.toContain(u.snapshot.bio ?? '-');
    }
    expect(text).not.toContain('theirs');
    expect(text).not.toContain(me.email);

    // Asked again (a new request with the same export id): the part is replaced, not added beside.
    noContent(await social.as(me).delete(`/api/friends/${bob.id}`));
    const again = await requestExport(me.id, exportId, 2);
    expect((again.data as GraphPart).friends.map((f) => f.id).sort()).toEqual([ann.id, cat.id].sort());
    expect((again.data as GraphPart).mutes).toEqual([]);
    const names: string[] = [];
    for await (const info of await (await exportParts(social.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'social-graph'))).toHaveLength(1);

    // The other person's export holds their graph, not the first person's.
    const theirs = (await requestExport(other.id, randomUUID())).data as GraphPart;
    expect(theirs.friends.map((f) => f.id)).toEqual([ann.id]);
    expect(theirs.blocks).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(me.id);
  });
});
