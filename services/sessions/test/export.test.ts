import { randomUUID } from 'node:crypto';
import { exportPart, type ExportPart } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { Client as S3Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, ok } from './helpers';
import { snapshot, startTestSessions, type Client, type TestSessions } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 the sessions service writes
 * its part: the person's sessions with every field and what others left on
 * them (who, what, when), what the person left on others' sessions, and the
 * S3 keys of their session photos as `session-photos/<session>-<n>.webp`.
 * Nothing of others beyond their id and names; a repeated request overwrites.
 */
let t: TestSessions;
beforeAll(async () => {
  // The definition's own export part, beside the audience's and the cards' consumers.
  t = await startTestSessions({}, { consumers: ['audience', 'cards', 'export'] });
});
afterAll(async () => {
  await t?.close();
});

const reports = async (exportId: string) =>
  (await readEvents(t.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'sessions');

async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(t.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from sessions`);
  const blob = await (await exportParts(t.bus)).getBlob(exportPartName(exportId, 'sessions'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

/** The keys of the objects media stored for this run (its own S3 server). */
async function storedObjects(): Promise<string[]> {
  const url = new URL(t.s3.endpoint);
  const s3 = new S3Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', pathStyle: true });
  const keys: string[] = [];
  for await (const item of s3.listObjectsV2('sessions-test', '', true) as AsyncIterable<{ name?: string }>) if (item.name) keys.push(item.name);
  return keys;
}

const named = (c: Client) => {
  const s = snapshot(c.id);
  return { id: c.id, username: s.username, displayName: s.displayName };
};

interface Interaction {
  by: { id: string; username: string | null; displayName: string | null };
  at: string;
  content?: string;
  emoji?: string;
}
interface SessionsPart {
  sessions: Array<Record<string, unknown> & { id: string; photos: string[]; likes: Interaction[]; comments: Interaction[]; reactions: Interaction[] }>;
  onOthersSessions: {
    likes: Array<{ sessionId: string; sessionOwner: { id: string }; at: string }>;
    comments: Array<{ sessionId: string; sessionOwner: { id: string }; content: string; at: string }>;
    reactions: Array<{ sessionId: string; sessionOwner: { id: string }; emoji: string; at: string }>;
  };
}

describe('the sessions part of a data export', () => {
  it('holds the person’s sessions with what others left on them, what they left on others’, their photos’ keys, nothing else of others, and a repeated request overwrites it', async () => {
    const [me, ann, bob] = [await t.user(), await t.user(), await t.user()];
    for (const [a, b] of [[me, ann], [me, bob], [ann, bob]] as const) await t.befriend(a, b);

    const mine = await t.logSession(me, { title: 'My pints', description: 'At the corner', beerCount: '3', duration: '95', location: 'The Crown' }, [
      { data: await jpeg('#c80') },
      { data: await jpeg('#08c') },
    ]);
    const plain = await t.logSession(me, { title: 'No photo' });
    const annSession = await t.logSession(ann, { title: 'Ann secret pints', description: 'Ann private words' }, { data: await jpeg('#0c8') });
    const bobSession = await t.logSession(bob, { title: 'Bob pints' });
    // Others on the person's session.
    ok(await ann.post(`/api/sessions/${mine.id}/like`));
    ok(await ann.post(`/api/sessions/${mine.id}/comments`, { content: 'Nice one' }), 201);
    ok(await bob.post(`/api/sessions/${mine.id}/react`, { emoji: '🍺' }), 201);
    // The person on others' sessions.
    ok(await me.post(`/api/sessions/${annSession.id}/like`));
    ok(await me.post(`/api/sessions/${annSession.id}/comments`, { content: 'Cheers from me' }), 201);
    ok(await me.post(`/api/sessions/${bobSession.id}/react`, { emoji: '🎉' }), 201);
    // Others among themselves: none of it belongs in the person's export.
    ok(await bob.post(`/api/sessions/${annSession.id}/like`));
    ok(await bob.post(`/api/sessions/${annSession.id}/comments`, { content: 'Bob says prost' }), 201);
    ok(await ann.post(`/api/sessions/${bobSession.id}/react`, { emoji: '🍻' }), 201);
    await t.settle();

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('sessions');
    const data = part.data as SessionsPart;
    expect(Object.keys(data).sort()).toEqual(['onOthersSessions', 'sessions']);
    expect(data.sessions.map((s) => s.id)).toEqual([mine.id, plain.id]);
    const [first, second] = data.sessions;
    expect(first).toMatchObject({
      title: 'My pints',
      description: 'At the corner',
      beerCount: 3,
      durationMinutes: 95,
      location: 'The Crown',
      photos: [`session-photos/${mine.id}-1.webp`, `session-photos/${mine.id}-2.webp`],
      likes: [{ by: named(ann), at: expect.any(String) }],
      comments: [{ id: expect.any(String), by: named(ann), content: 'Nice one', at: expect.any(String) }],
      reactions: [{ by: named(bob), emoji: '🍺', at: expect.any(String) }],
    });
    expect(Object.keys(first ?? {}).sort()).toEqual(
      ['averageAbv', 'beerCount', 'beerTypes', 'comments', 'createdAt', 'description', 'durationMinutes', 'id', 'latitude', 'likes', 'location', 'longitude', 'musicTrack', 'photos', 'reactions', 'title', 'updatedAt'].sort(),
    );
    expect(new Date(String(first?.createdAt)).toISOString()).toBe(first?.createdAt);
    expect(second).toMatchObject({ title: 'No photo', photos: [], likes: [], comments: [], reactions: [] });
    expect(data.onOthersSessions).toEqual({
      likes: [{ sessionId: annSession.id, sessionOwner: named(ann), at: expect.any(String) }],
      comments: [{ id: expect.any(String), sessionId: annSession.id, sessionOwner: named(ann), content: 'Cheers from me', at: expect.any(String), editedAt: null }],
      reactions: [{ sessionId: bobSession.id, sessionOwner: named(bob), emoji: '🎉', at: expect.any(String) }],
    });
    // The photos: the person's own originals, as media stored them.
    expect(part.files.map((f) => f.path)).toEqual([`session-photos/${mine.id}-1.webp`, `session-photos/${mine.id}-2.webp`]);
    const stored = await storedObjects();
    for (const file of part.files) {
      expect(file.key).toMatch(new RegExp(`^uploads/${me.id}/[0-9a-f-]{36}\\.webp$`));
      expect(stored).toContain(file.key);
    }
    // Nothing of the others' own sessions or of what they did among themselves.
    const text = JSON.stringify(part);
    for (const needle of ['Ann secret pints', 'Ann private words', 'Bob pints', 'Bob says prost', '🍻', `uploads/${ann.id}`, ann.id + '@', snapshot(ann.id).email]) {
      expect(text).not.toContain(needle);
    }

    // Asked again with the same export id: the part is replaced, not added beside.
    ok(await bob.post(`/api/sessions/${plain.id}/comments`, { content: 'Late comment' }), 201);
    const again = (await requestExport(me.id, exportId, 2)).data as SessionsPart;
    expect(again.sessions[1]?.comments).toEqual([{ id: expect.any(String), by: named(bob), content: 'Late comment', at: expect.any(String), editedAt: null }]);
    const names: string[] = [];
    for await (const info of await (await exportParts(t.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'sessions'))).toHaveLength(1);

    // Ann's export: her session and her photo, the person's like and comment on it, nothing of the person's sessions.
    const hers = await requestExport(ann.id, randomUUID());
    const herData = hers.data as SessionsPart;
    expect(herData.sessions.map((s) => s.id)).toEqual([annSession.id]);
    expect(herData.sessions[0]?.likes.map((l) => l.by.id).sort()).toEqual([me.id, bob.id].sort());
    expect(hers.files).toEqual([{ path: `session-photos/${annSession.id}-1.webp`, key: expect.stringMatching(new RegExp(`^uploads/${ann.id}/`)) }]);
    expect(JSON.stringify(hers)).not.toContain('My pints');
    expect(JSON.stringify(hers)).not.toContain(`uploads/${me.id}`);
  });

  it('follows the block rule either way: what the other left is out, what the person left names them by id only (issue 39)', async () => {
    const [me, blocker, blocked] = [await t.user(), await t.user(), await t.user()];
    for (const other of [blocker, blocked]) await t.befriend(me, other);
    const mine = await t.logSession(me, { title: 'Mine' });
    const theirs = await t.logSession(blocker, { title: 'Blocker pints' });
    for (const other of [blocker, blocked]) {
      ok(await other.post(`/api/sessions/${mine.id}/like`));
      ok(await other.post(`/api/sessions/${mine.id}/comments`, { content: `From ${other.id}` }), 201);
    }
    ok(await me.post(`/api/sessions/${theirs.id}/comments`, { content: 'Mine on theirs' }), 201);
    await t.publish('social.user.blocked.v1', { blockerId: blocker.id, blockedId: me.id });
    await t.publish('social.user.blocked.v1', { blockerId: me.id, blockedId: blocked.id });
    await t.settle();

    const data = (await requestExport(me.id, randomUUID())).data as SessionsPart;
    expect(data.sessions[0]).toMatchObject({ id: mine.id, likes: [], comments: [] });
    expect(data.onOthersSessions.comments).toEqual([
      { id: expect.any(String), sessionId: theirs.id, sessionOwner: { id: blocker.id, username: null, displayName: null }, content: 'Mine on theirs', at: expect.any(String), editedAt: null },
    ]);
    for (const other of [blocker, blocked]) expect(JSON.stringify(data)).not.toContain(snapshot(other.id).displayName);
  });
});
