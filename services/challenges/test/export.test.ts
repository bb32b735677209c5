import { randomUUID } from 'node:crypto';
import { exportPart, type Challenge, type ChallengeInvitation, type ExportPart } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { eventually, ok, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, sessionFacts, startTestChallenges, type Client, type TestChallenges } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 challenges writes its part:
 * the challenges the person joined with their progress and completion, and
 * the invitations they sent and received. Nothing of others' progress or of
 * invitations between others; a repeated request overwrites the part.
 */
let service: TestChallenges;
const NOON = new Date('2026-06-15T12:00:00Z');
const hoursAfterNoon = (h: number) => new Date(NOON.getTime() + h * 3_600_000);

beforeAll(async () => {
  // The definition's own export part (at the service's clock), beside the read models' and progress'.
  service = await startTestChallenges({ now: NOON, consumers: ['audience', 'progress', 'export'] });
});
afterAll(() => service?.close());

const reports = async (exportId: string) =>
  (await readEvents(service.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'challenges');

async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(service.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from challenges`);
  const blob = await (await exportParts(service.bus)).getBlob(exportPartName(exportId, 'challenges'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

async function todays(person: Client, kind: string): Promise<Challenge> {
  const found = ok<Challenge[]>(await person.get('/api/challenges?timeZone=UTC')).find((c) => c.challengeType === kind);
  if (!found) throw new Error(`no ${kind} today`);
  return found;
}
const join = async (person: Client, challenge: Challenge) => ok<Challenge>(await person.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'UTC' }));
const invite = async (from: Client, challenge: Challenge, to: Client) =>
  ok<ChallengeInvitation>(await from.post(`/api/challenges/${challenge.id}/invitations?timeZone=UTC`, { friendId: to.id }), 201);
const named = (c: Client, displayName: string) => ({ id: c.id, username: testUserSnapshot(c.id).username, displayName });

interface Invitation {
  id: string;
  challenge: { id: string; title: string; date: string };
  status: string;
  createdAt: string;
  respondedAt: string | null;
  expiresAt: string;
  to?: { id: string };
  from?: { id: string };
}
interface ChallengesPart {
  participations: Array<{ challenge: { id: string; title: string; date: string }; progress: number; isCompleted: boolean; completedAt: string | null; timeZone: string; joinedAt: string }>;
  invitations: { sent: Invitation[]; received: Invitation[] };
}

describe('the challenges part of a data export', () => {
  it('holds the person’s challenges with progress and their invitations both ways, nothing of others’, and a repeated request overwrites it', async () => {
    const me = await service.user({ displayName: 'Mia Me' });
    const bob = await service.user({ displayName: 'Bob Other' });
    const carol = await service.user({ displayName: 'Carol Other' });
    await befriend(service, me, bob);
    await befriend(service, me, carol);
    await befriend(service, bob, carol);
    const styles = await todays(me, 'new_styles');
    const reviews = await todays(me, 'bar_review');
    const music = await todays(me, 'music_session');

    await join(me, styles);
    await join(me, reviews);
    await service.publish('session.created.v1', sessionFacts(me.id, hoursAfterNoon(1), { beerTypes: ['Gose', 'Mild'] }));
    await invite(me, styles, bob);
    await invite(carol, music, me);
    // Others: Bob's own progress in the same challenge, an invitation between Bob and Carol.
    await join(bob, styles);
    await service.publish('session.created.v1', sessionFacts(bob.id, hoursAfterNoon(1), { beerTypes: ['Stout', 'Porter', 'Lager', 'Saison'] }));
    await invite(bob, reviews, carol);
    const shown = ok<Challenge>(await me.get(`/api/challenges/${styles.id}?timeZone=UTC`));

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('challenges');
    expect(part.files).toEqual([]);
    const data = part.data as ChallengesPart;
    expect(Object.keys(data).sort()).toEqual(['invitations', 'participations']);
    expect(data.participations.map((p) => p.challenge.id)).toEqual([styles.id, reviews.id]);
    expect(data.participations[0]).toMatchObject({
      challenge: { id: styles.id, title: styles.title, date: styles.date, challengeType: 'new_styles', targetValue: styles.targetValue },
      progress: shown.progress,
      isCompleted: shown.isCompleted,
      completedAt: shown.completedAt,
      timeZone: 'UTC',
    });
    expect(data.participations[0]?.progress).toBe(2);
    expect(data.participations[1]).toMatchObject({ progress: 0, isCompleted: false, completedAt: null });
    expect(data.invitations.sent).toEqual([
      { id: expect.any(String), challenge: expect.objectContaining({ id: styles.id }), to: named(bob, 'Bob Other'), status: 'pending', createdAt: expect.any(String), respondedAt: null, expiresAt: expect.any(String) },
    ]);
    expect(data.invitations.received).toEqual([
      { id: expect.any(String), challenge: expect.objectContaining({ id: music.id }), from: named(carol, 'Carol Other'), status: 'pending', createdAt: expect.any(String), respondedAt: null, expiresAt: expect.any(String) },
    ]);
    // Nothing of Bob's progress nor of the invitation between Bob and Carol.
    const text = JSON.stringify(part);
    expect(text).not.toContain('"progress":3');
    expect(data.invitations.sent.concat(data.invitations.received).every((i) => i.to?.id !== carol.id && i.from?.id !== bob.id)).toBe(true);

    // Asked again with the same export id: replaced, not added beside.
    const received = data.invitations.received[0];
    if (!received) throw new Error('no invitation received');
    ok<ChallengeInvitation>(await me.patch(`/api/challenge-invitations/${received.id}`, { action: 'accept', timeZone: 'UTC' }));
    const again = (await requestExport(me.id, exportId, 2)).data as ChallengesPart;
    expect(again.invitations.received.map((i) => i.status)).toEqual(['accepted']);
    expect(again.participations.map((p) => p.challenge.id)).toEqual([styles.id, reviews.id, music.id]);
    const names: string[] = [];
    for await (const info of await (await exportParts(service.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'challenges'))).toHaveLength(1);

    // Bob's export: his challenges with his progress (inviting Carol joined him), the invitation he got from the person and the one he sent Carol.
    const his = (await requestExport(bob.id, randomUUID())).data as ChallengesPart;
    expect(his.participations.map((p) => [p.challenge.id, p.progress, p.isCompleted])).toEqual([
      [styles.id, 3, true],
      [reviews.id, 0, false],
    ]);
    expect(his.invitations.received.map((i) => i.from?.id)).toEqual([me.id]);
    expect(his.invitations.sent.map((i) => i.to?.id)).toEqual([carol.id]);
    expect(JSON.stringify(his)).not.toContain(music.id);
  });
});
