import { randomUUID } from 'node:crypto';
import { NOTIFICATION_KIND_NAMES, exportPart, type ExportPart } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { eventually, ok, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNotifications, type Client, type TestNotifications } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 notifications writes its part:
 * the person's inbox as they may see it (each entry's words and every
 * contribution: what, by whom, when) and their settings for every kind.
 * Nothing of others' inboxes or settings; a repeated request overwrites it.
 */
let t: TestNotifications;

beforeAll(async () => {
  // The definition's own export part, beside the read models' and the inbox's consumers.
  t = await startTestNotifications({}, { consumers: ['audience', 'inbox', 'export'] });
});
afterAll(async () => {
  await t?.close();
});

const reports = async (exportId: string) =>
  (await readEvents(t.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'notifications');

async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(t.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from notifications`);
  const blob = await (await exportParts(t.bus)).getBlob(exportPartName(exportId, 'notifications'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

async function session(owner: Client, title: string): Promise<string> {
  const sessionId = randomUUID();
  const at = new Date().toISOString();
  await t.publish('session.created.v1', { sessionId, userId: owner.id, beerCount: 1, duration: 30, title, createdAt: at, updatedAt: at });
  return sessionId;
}

const named = (c: Client, displayName: string) => ({ id: c.id, username: testUserSnapshot(c.id).username, displayName });

interface Entry {
  id: string;
  kinds: string[];
  text: string;
  target: { type: string; id: string; title?: string | null };
  read: boolean;
  createdAt: string;
  updatedAt: string;
  contributions: Array<{ kind: string; by: { id: string; username: string | null; displayName: string | null }; at: string }>;
}
interface NotificationsPart {
  inbox: Entry[];
  settings: Record<string, { label: string; inApp: boolean; email: boolean; changed: boolean }>;
}

describe('the notifications part of a data export', () => {
  it('holds the person’s inbox with every contribution and their settings, nothing of others’ inboxes, and a repeated request overwrites it', async () => {
    const me = await t.user({ displayName: 'Mia Me' });
    const bob = await t.user({ displayName: 'Bob Other' });
    const carol = await t.user({ displayName: 'Carol Other' });
    const [mine, bobs] = [await session(me, 'Mia’s night'), await session(bob, 'Bob’s secret night')];
    const challengeId = randomUUID();

    // The person's inbox: a like and a comment on her session, a friend request, a completed challenge; her settings.
    await t.publish('session.liked.v1', { sessionId: mine, ownerId: me.id, userId: bob.id });
    await t.publish('session.commented.v1', { sessionId: mine, ownerId: me.id, userId: carol.id, commentId: randomUUID(), content: 'nice' });
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: carol.id, recipientId: me.id });
    await t.publish('challenge.completed.v1', { challengeId, userId: me.id, title: 'Try 3 new styles', date: '2026-06-15', completedAt: new Date().toISOString() });
    ok(await me.put('/api/notifications/settings', { kinds: { 'session.reacted': { inApp: true, email: true }, 'friend.requested': { inApp: true, email: false } } }));
    // Others' inboxes and settings: none of it belongs in her export.
    await t.publish('session.liked.v1', { sessionId: bobs, ownerId: bob.id, userId: me.id });
    await t.publish('session.reacted.v1', { sessionId: bobs, ownerId: bob.id, userId: carol.id, emoji: '🍺' });
    await t.publish('message.sent.v1', { conversationId: randomUUID(), messageId: randomUUID(), senderId: carol.id, recipientId: bob.id, content: 'hi', createdAt: new Date().toISOString() });
    ok(await bob.put('/api/notifications/settings', { kinds: { 'comment.followed': { inApp: false, email: false } } }));

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('notifications');
    expect(part.files).toEqual([]);
    const data = part.data as NotificationsPart;
    expect(Object.keys(data).sort()).toEqual(['inbox', 'settings']);
    expect(data.inbox).toHaveLength(3);
    const byKind = (kind: string) => data.inbox.find((e) => e.kinds.includes(kind));
    expect(byKind('session.liked')).toMatchObject({
      kinds: ['session.liked', 'session.commented'],
      target: { type: 'session', id: mine, title: 'Mia’s night' },
      read: false,
      contributions: [
        { kind: 'session.liked', by: named(bob, 'Bob Other'), at: expect.any(String) },
        { kind: 'session.commented', by: named(carol, 'Carol Other'), at: expect.any(String) },
      ],
    });
    expect(byKind('session.liked')?.text).toContain('Mia’s night');
    expect(byKind('friend.requested')).toMatchObject({ target: { type: 'user', id: carol.id }, contributions: [{ kind: 'friend.requested', by: named(carol, 'Carol Other') }] });
    expect(byKind('challenge.completed')).toMatchObject({ target: { type: 'challenge', id: challengeId, title: 'Try 3 new styles' }, contributions: [{ by: { id: me.id } }] });
    for (const entry of data.inbox) expect(new Date(entry.updatedAt).toISOString()).toBe(entry.updatedAt);
    expect(Object.keys(data.settings)).toEqual(NOTIFICATION_KIND_NAMES);
    expect(data.settings['session.reacted']).toMatchObject({ inApp: true, email: true, changed: true });
    expect(data.settings['friend.requested']).toMatchObject({ inApp: true, email: false, changed: true });
    expect(data.settings['challenge.invited']).toMatchObject({ inApp: true, email: true, changed: false });
    expect(data.settings['comment.followed']).toMatchObject({ inApp: true, email: false, changed: false });
    const text = JSON.stringify(part);
    for (const needle of [bobs, 'Bob’s secret night', '🍺']) expect(text).not.toContain(needle);
    expect(data.inbox.flatMap((e) => e.kinds)).not.toContain('message.received');

    // Asked again with the same export id: replaced, not added beside.
    ok(await me.post('/api/notifications/read', { all: true }));
    const again = (await requestExport(me.id, exportId, 2)).data as NotificationsPart;
    expect(again.inbox.map((e) => e.read)).toEqual([true, true, true]);
    const names: string[] = [];
    for await (const info of await (await exportParts(t.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'notifications'))).toHaveLength(1);

    // Bob's export: his inbox and settings, nothing of hers.
    const his = (await requestExport(bob.id, randomUUID())).data as NotificationsPart;
    expect(his.inbox.map((e) => e.target.id).sort()).toEqual([bobs, carol.id].sort());
    expect(his.settings['comment.followed']).toMatchObject({ inApp: false, email: false, changed: true });
    expect(JSON.stringify(his)).not.toContain('Mia’s night');
    expect(JSON.stringify(his)).not.toContain(challengeId);
  });
});
