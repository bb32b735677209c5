import { randomUUID } from 'node:crypto';
import { exportPart, type ExportPart } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, say, start } from './helpers';
import { snapshot, startTestMessaging, type Client, type TestMessaging } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 messaging writes its part:
 * the person's conversations (the other participant by id and names) with
 * every message in them (sender, text, time, read state). Nothing of other
 * people's conversations; a repeated request overwrites the part.
 */
let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging({}, { consumers: ['audience', 'export'] });
});
afterAll(async () => {
  await t?.close();
});

const reports = async (exportId: string) =>
  (await readEvents(t.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'messaging');

async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(t.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from messaging`);
  const blob = await (await exportParts(t.bus)).getBlob(exportPartName(exportId, 'messaging'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

const named = (c: Client) => {
  const s = snapshot(c.id);
  return { id: c.id, username: s.username, displayName: s.displayName };
};

interface MessagingPart {
  conversations: Array<{
    id: string;
    with: { id: string; username: string | null; displayName: string | null };
    startedAt: string;
    lastMessageAt: string | null;
    messages: Array<{ id: string; senderId: string; sentByMe: boolean; content: string; sentAt: string; isRead: boolean; readAt: string | null }>;
  }>;
}

describe('the messaging part of a data export', () => {
  it('holds the person’s conversations with every message, nothing of others’ conversations, and a repeated request overwrites it', async () => {
    const [me, ann, bob] = [await t.user(), await t.user(), await t.user()];
    const withAnn = await start(me, ann);
    await say(me, withAnn.id, 'Pints tonight?');
    await say(ann, withAnn.id, 'Sure, at eight');
    ok(await ann.patch(`/api/conversations/${withAnn.id}/read`));
    const withBob = await start(bob, me);
    await say(bob, withBob.id, 'Hello from Bob');
    // A conversation the person is not in.
    const theirs = await start(ann, bob);
    await say(ann, theirs.id, 'Ann to Bob, private');
    await say(bob, theirs.id, 'Bob to Ann, private');

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('messaging');
    expect(part.files).toEqual([]);
    const data = part.data as MessagingPart;
    expect(Object.keys(data)).toEqual(['conversations']);
    expect(data.conversations.map((c) => c.id)).toEqual([withAnn.id, withBob.id]);
    const [first, second] = data.conversations;
    expect(first?.with).toEqual(named(ann));
    expect(first?.messages).toEqual([
      { id: expect.any(String), senderId: me.id, sentByMe: true, content: 'Pints tonight?', messageType: 'text', attachmentUrl: null, sentAt: expect.any(String), isRead: true, readAt: expect.any(String) },
      { id: expect.any(String), senderId: ann.id, sentByMe: false, content: 'Sure, at eight', messageType: 'text', attachmentUrl: null, sentAt: expect.any(String), isRead: false, readAt: null },
    ]);
    for (const m of first?.messages ?? []) expect(new Date(m.sentAt).toISOString()).toBe(m.sentAt);
    expect(second?.with).toEqual(named(bob));
    expect(second?.messages.map((m) => [m.senderId, m.content, m.isRead])).toEqual([[bob.id, 'Hello from Bob', false]]);
    const text = JSON.stringify(part);
    expect(text).not.toContain('private');
    expect(text).not.toContain(theirs.id);
    expect(text).not.toContain(snapshot(ann.id).email);

    // Asked again with the same export id: replaced, not added beside.
    await say(me, withBob.id, 'Hi Bob');
    const again = (await requestExport(me.id, exportId, 2)).data as MessagingPart;
    expect(again.conversations[1]?.messages.map((m) => m.content)).toEqual(['Hello from Bob', 'Hi Bob']);
    const names: string[] = [];
    for await (const info of await (await exportParts(t.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'messaging'))).toHaveLength(1);

    // Ann's export: her two conversations, the person's messages to her among them, nothing of the person and Bob.
    const hers = (await requestExport(ann.id, randomUUID())).data as MessagingPart;
    expect(hers.conversations.map((c) => c.id)).toEqual([withAnn.id, theirs.id]);
    expect(JSON.stringify(hers)).not.toContain('Hello from Bob');
    expect(JSON.stringify(hers)).not.toContain(withBob.id);
  });
});
