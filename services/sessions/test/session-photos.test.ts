import type { FeedSession, SessionPhotoPage } from '@hoptrack/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, jpeg, ok } from './helpers';
import { startTestSessions, type Client, type Photo, type TestSessions } from './support';

/**
 * A person's session photos as one list (issue 40: the Photos screen showed
 * none): GET /api/users/{id}/session-photos, newest session first, each
 * session's photos in order, every URL signed for its viewer, under the rule
 * of the person's sessions list.
 */
let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const photos = (colours: string[]): Promise<Photo[]> => Promise.all(colours.map(async (colour, i) => ({ data: await jpeg(colour), filename: `s${i}.jpg` })));
const pathOf = (url: string) => url.split('?')[0] ?? url;
const signedFor = (viewer: Client) => new RegExp(`^/api/media/files/uploads/[0-9a-f-]{36}/[0-9a-f-]{36}\\.webp\\?exp=\\d+&v=${viewer.id}&sig=[\\w-]+$`);
const listOf = async (viewer: Client, authorId: string, query = '') => ok<SessionPhotoPage>(await viewer.get(`/api/users/${authorId}/session-photos${query}`));

describe('session photos', () => {
  it('lists every photo of the sessions, newest session first and in order, signed for each viewer, a page at a time', async () => {
    const [author, friend] = [await t.user(), await t.user()];
    await t.befriend(author, friend);
    const first = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Older pints' }, await photos(['#c80', '#08c'])), 201);
    await t.logSession(author, { title: 'No photo' });
    const second = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Newer pints' }, await photos(['#8c0'])), 201);

    const mine = await listOf(author, author.id);
    expect(mine.total).toBe(3);
    expect(mine.photos.map((p) => [p.sessionId, p.sessionTitle, pathOf(p.url)])).toEqual([
      [second.id, 'Newer pints', pathOf(second.photos[0] ?? '')],
      [first.id, 'Older pints', pathOf(first.photos[0] ?? '')],
      [first.id, 'Older pints', pathOf(first.photos[1] ?? '')],
    ]);
    for (const p of mine.photos) expect(p.url).toMatch(signedFor(author));
    expect(mine.photos[0]?.createdAt).toBe(second.createdAt);

    // A friend gets the same photos, signed for the friend; media serves them for that signature.
    const theirs = await listOf(friend, author.id);
    expect(theirs.photos.map((p) => pathOf(p.url))).toEqual(mine.photos.map((p) => pathOf(p.url)));
    for (const p of theirs.photos) expect(p.url).toMatch(signedFor(friend));
    expect((await fetch(`${t.media.url}${theirs.photos[0]?.url}`)).status).toBe(200);

    // Paged: the total stays, the page moves.
    const page = await listOf(author, author.id, '?limit=2&offset=2');
    expect(page.total).toBe(3);
    expect(page.photos.map((p) => pathOf(p.url))).toEqual([pathOf(first.photos[1] ?? '')]);

    // What the sessions hold is what is listed: a deleted session takes its photos with it.
    expect((await author.delete(`/api/sessions/${first.id}`)).statusCode).toBe(204);
    expect((await listOf(author, author.id)).photos.map((p) => p.sessionId)).toEqual([second.id]);
  });

  it("follows the sessions list's rule: a private author's to friends only (403), blocked either way or unknown 404", async () => {
    const [author, friend, stranger, blocked] = [await t.user({ private: true }), await t.user(), await t.user(), await t.user()];
    await t.befriend(author, friend);
    await t.logSession(author, { title: 'Private pints' }, await photos(['#c08']));
    expect((await listOf(friend, author.id)).total).toBe(1);
    expectError(await stranger.get(`/api/users/${author.id}/session-photos`), 403);
    await t.publish('social.user.blocked.v1', { blockerId: author.id, blockedId: blocked.id });
    await t.settle();
    expectError(await blocked.get(`/api/users/${author.id}/session-photos`), 404);
    expectError(await stranger.get(`/api/users/${randomUUID()}/session-photos`), 404);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=61', 'limit'],
    ['?offset=-1', 'offset'],
    ['?limit=abc', 'limit'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const viewer = await t.user();
    expectError(await viewer.get(`/api/users/${viewer.id}/session-photos${query}`), 400, { field });
  });

  it('answers 400 for a malformed user id', async () => {
    const viewer = await t.user();
    expectError(await viewer.get('/api/users/not-a-uuid/session-photos'), 400, { field: 'id' });
  });
});
