import { randomUUID } from 'node:crypto';
import type { FeedSession } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, jpeg, ok } from './helpers';
import { startTestSessions, type TestSessions } from './support';

let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const track = { id: 't1', name: 'Song', artist: 'Band', album: null, duration: 200, imageUrl: null, service: 'manual', externalUrl: null };
/** A song typed by hand in the web app (issue 40): a title and an artist, nothing else known. */
const typedSong = { id: 'typed-abc', name: 'Whiskey in the Jar', artist: 'Thin Lizzy', album: null, duration: 0, imageUrl: null, service: 'manual', externalUrl: null };
const eventsOf = async (sessionId: string) =>
  (await t.sessionEvents()).filter((e) => (e.data as { sessionId?: string }).sessionId === sessionId).map((e) => ({ type: e.type, data: e.data }));
const rowCount = () => t.prisma.beerSession.count();

describe('logging a session', () => {
  it('defaults beerCount to 1 and duration to 60, and publishes session.created.v1 with its facts', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: '  Quiet one  ' }), 201);
    expect(created).toMatchObject({
      userId: author.id,
      title: 'Quiet one',
      beerCount: 1,
      duration: 60,
      description: null,
      location: null,
      avgAbv: null,
      photo: null,
      beerTypes: [],
      musicTrack: null,
      likeCount: 0,
      commentCount: 0,
    });
    const row = await t.prisma.beerSession.findUnique({ where: { id: created.id } });
    expect(row).toMatchObject({ userId: author.id, beerCount: 1, duration: 60 });
    expect(await eventsOf(created.id)).toEqual([
      {
        type: 'session.created.v1',
        data: {
          sessionId: created.id,
          userId: author.id,
          beerCount: 1,
          duration: 60,
          title: created.title,
          beerTypes: [],
          location: null,
          hasMusic: false,
          createdAt: created.createdAt,
          updatedAt: created.updatedAt,
          version: 1,
        },
      },
    ]);
  });

  it('stores every field given', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(
      await author.form('POST', '/api/sessions', {
        title: 'Full',
        description: 'desc',
        location: 'The Pub',
        beerCount: '4',
        duration: '120',
        avgAbv: '5.5',
        latitude: '51.5',
        longitude: '-0.12',
        beerTypes: JSON.stringify(['IPA', 'Sour']),
        musicTrack: JSON.stringify(track),
      }),
      201,
    );
    expect(created).toMatchObject({
      description: 'desc',
      location: 'The Pub',
      beerCount: 4,
      duration: 120,
      avgAbv: '5.5',
      latitude: '51.5',
      longitude: '-0.12',
      beerTypes: ['IPA', 'Sour'],
      musicTrack: track,
    });
    expect(ok<FeedSession>(await author.get(`/api/sessions/${created.id}`))).toMatchObject({ beerTypes: ['IPA', 'Sour'], musicTrack: track, avgAbv: '5.5' });
  });

  it('stores a song typed by hand (service manual), trimmed, at the limits', async () => {
    const author = await t.user();
    const song = { ...typedSong, name: `  ${'n'.repeat(200)}  `, artist: ' Thin Lizzy ' };
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Typed', musicTrack: JSON.stringify(song) }), 201);
    expect(created.musicTrack).toEqual({ ...typedSong, name: 'n'.repeat(200), artist: 'Thin Lizzy' });
    expect(ok<FeedSession>(await author.get(`/api/sessions/${created.id}`)).musicTrack).toEqual(created.musicTrack);
  });

  it('publishes the stored (normalised) beer types, the location and hasMusic in session.created.v1', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(
      await author.form('POST', '/api/sessions', {
        title: 'Styles',
        location: '  The Pub  ',
        beerTypes: JSON.stringify([' IPA ', 'ipa', 'Sour', '']),
        musicTrack: JSON.stringify(track),
      }),
      201,
    );
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({ type: 'session.created.v1', data: { beerTypes: ['IPA', 'Sour'], location: 'The Pub', hasMusic: true } });
    const row = await t.prisma.beerSession.findUniqueOrThrow({ where: { id: created.id } });
    expect(event?.data).toMatchObject({ beerTypes: row.beerTypes, location: row.location });
  });

  describe('rejects bad input with 400 and the field', () => {
    const cases: Array<[string, Record<string, string | undefined>, string]> = [
      ['beerCount 0', { beerCount: '0' }, 'beerCount'],
      ['beerCount abc', { beerCount: 'abc' }, 'beerCount'],
      ['beerCount over the max', { beerCount: '101' }, 'beerCount'],
      ['duration 0', { duration: '0' }, 'duration'],
      ['a missing title', { title: undefined }, 'title'],
      ['a blank title', { title: '   ' }, 'title'],
      ['a title over 100 characters', { title: 'x'.repeat(101) }, 'title'],
      ['beerTypes not JSON', { beerTypes: 'IPA, Lager' }, 'beerTypes'],
      ['beerTypes not an array', { beerTypes: '{"a":"IPA"}' }, 'beerTypes'],
      ['beerTypes not strings', { beerTypes: '["IPA", 5]' }, 'beerTypes'],
      ['musicTrack malformed JSON', { musicTrack: '{"id":' }, 'musicTrack'],
      ['musicTrack missing fields', { musicTrack: JSON.stringify({ id: 't1', name: 'Song' }) }, 'musicTrack'],
      ['a typed song without a title', { musicTrack: JSON.stringify({ ...typedSong, name: '   ' }) }, 'musicTrack'],
      ['a typed song without an artist', { musicTrack: JSON.stringify({ ...typedSong, artist: '' }) }, 'musicTrack'],
      ['a typed song title over 200 characters', { musicTrack: JSON.stringify({ ...typedSong, name: 'x'.repeat(201) }) }, 'musicTrack'],
      ['a typed song artist over 200 characters', { musicTrack: JSON.stringify({ ...typedSong, artist: 'x'.repeat(201) }) }, 'musicTrack'],
      ['a track of an unknown service', { musicTrack: JSON.stringify({ ...typedSong, service: 'tidal' }) }, 'musicTrack'],
      ['avgAbv strong', { avgAbv: 'strong' }, 'avgAbv'],
      ['latitude 91', { latitude: '91' }, 'latitude'],
      ['longitude -181', { longitude: '-181' }, 'longitude'],
    ];
    it.each(cases)('%s', async (_name, fields, field) => {
      const author = await t.user();
      const before = await rowCount();
      expectError(await author.form('POST', '/api/sessions', { title: 'Bad', ...fields }), 400, { field });
      expect(await rowCount()).toBe(before);
    });
  });

  it('a photo that is not an image is refused by media (400) and leaves no session behind', async () => {
    const author = await t.user();
    const before = await rowCount();
    const res = await author.form('POST', '/api/sessions', { title: 'Fake photo' }, { data: Buffer.from('just some text, not a jpeg at all'), contentType: 'image/jpeg' });
    expectError(res, 400, { field: 'sessionPhoto' });
    expect(await rowCount()).toBe(before);
    expect(await t.prisma.beerSession.count({ where: { userId: author.id } })).toBe(0);
  });

  it('a photo of a non-image content type is refused (400) and leaves no session behind', async () => {
    const author = await t.user();
    const before = await rowCount();
    expectError(await author.form('POST', '/api/sessions', { title: 'Text' }, { data: Buffer.from('hello'), contentType: 'text/plain', filename: 'a.txt' }), 400, {
      field: 'sessionPhoto',
    });
    expect(await rowCount()).toBe(before);
  });

  it('a photo over 10 MB is refused with 413 and leaves no session behind', async () => {
    const author = await t.user();
    const before = await rowCount();
    const big = Buffer.concat([await jpeg(), Buffer.alloc(10 * 1024 * 1024 + 1024, 7)]);
    const res = await author.form('POST', '/api/sessions', { title: 'Huge' }, { data: big });
    expect(res.statusCode, res.body).toBe(413);
    expect(await rowCount()).toBe(before);
  });

  it('requires a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sessions' });
    expect(res.statusCode).toBe(401);
  });
});

describe('reading one session', () => {
  it('an unknown session is 404, a malformed id 400', async () => {
    const viewer = await t.user();
    expectError(await viewer.get(`/api/sessions/${randomUUID()}`), 404);
    expectError(await viewer.get('/api/sessions/not-a-uuid'), 400, { field: 'id' });
    expectError(await viewer.delete(`/api/sessions/${randomUUID()}`), 404);
    expectError(await viewer.form('PUT', `/api/sessions/${randomUUID()}`, { title: 'x' }), 404);
    expectError(await viewer.form('PUT', '/api/sessions/123', { title: 'x' }), 400, { field: 'id' });
  });
});

describe('editing a session', () => {
  const full = { title: 'Original', description: 'desc', location: 'The Pub', beerCount: '3', duration: '90', avgAbv: '6', beerTypes: '["IPA"]', musicTrack: JSON.stringify(track) };

  it('keeps omitted fields (counts, types, track, photo) and publishes session.updated.v1 with the new facts', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', full, { data: await jpeg() }), 201);
    expect(created.photo).toMatch(/\.webp\?exp=/);
    await new Promise((r) => setTimeout(r, 5));
    const updated = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, { title: 'Renamed', beerCount: '5' }));
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed', beerCount: 5, duration: 90, beerTypes: ['IPA'], musicTrack: track, photo: created.photo });
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
    expect(updated.createdAt).toBe(created.createdAt);
    expect(ok<FeedSession>(await author.get(`/api/sessions/${created.id}`))).toMatchObject({ title: 'Renamed', beerCount: 5, duration: 90 });
    expect(await eventsOf(created.id)).toEqual([
      expect.objectContaining({ type: 'session.created.v1' }),
      {
        type: 'session.updated.v1',
        data: {
          sessionId: created.id,
          userId: author.id,
          beerCount: 5,
          duration: 90,
          title: 'Renamed',
          beerTypes: ['IPA'],
          location: 'The Pub',
          hasMusic: true,
          createdAt: created.createdAt,
          updatedAt: updated.updatedAt,
          // Incremented with the edit, in the same statement: what orders the session's events elsewhere (issue 38).
          version: 2,
        },
      },
    ]);
  });

  it('publishes the new beer types, location and hasMusic in session.updated.v1, also when they are cleared', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', full), 201);
    ok(await author.form('PUT', `/api/sessions/${created.id}`, { beerTypes: JSON.stringify(['Stout', 'stout ', 'Porter']), location: 'Home' }));
    ok(await author.form('PUT', `/api/sessions/${created.id}`, { beerTypes: '[]', location: '', musicTrack: '' }));
    const updates = (await eventsOf(created.id)).filter((e) => e.type === 'session.updated.v1').map((e) => e.data);
    expect(updates).toEqual([
      expect.objectContaining({ beerTypes: ['Stout', 'Porter'], location: 'Home', hasMusic: true, version: 2 }),
      expect.objectContaining({ beerTypes: [], location: null, hasMusic: false, version: 3 }),
    ]);
  });

  it('keeps omitted optional text fields (description, location, avgAbv)', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', full), 201);
    const updated = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, { title: 'Renamed' }));
    expect(updated).toMatchObject({ description: 'desc', location: 'The Pub', avgAbv: '6' });
  });

  it('clears an optional field sent empty, and the photo with removePhoto=true', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', full, { data: await jpeg() }), 201);
    expect(created.photo).not.toBeNull();
    const updated = ok<FeedSession>(
      await author.form('PUT', `/api/sessions/${created.id}`, { ...full, description: '', location: '   ', musicTrack: '', beerTypes: '[]', removePhoto: 'true' }),
    );
    expect(updated).toMatchObject({ title: 'Original', description: null, location: null, musicTrack: null, beerTypes: [], photo: null, avgAbv: '6' });
    expect(await t.prisma.beerSession.findUnique({ where: { id: created.id } })).toMatchObject({ description: null, location: null, photo: null, musicTrack: null });
  });

  it('replaces the photo with a new one', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'p' }, { data: await jpeg('#111') }), 201);
    const updated = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, {}, { data: await jpeg('#eee') }));
    expect(updated.photo).toMatch(/\.webp\?exp=/);
    expect(updated.photo).not.toBe(created.photo);
  });

  it('validates like create: bad fields are 400 with the field, and nothing changes', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', full), 201);
    expectError(await author.form('PUT', `/api/sessions/${created.id}`, { duration: '0' }), 400, { field: 'duration' });
    expectError(await author.form('PUT', `/api/sessions/${created.id}`, { title: ' ' }), 400, { field: 'title' });
    expectError(await author.form('PUT', `/api/sessions/${created.id}`, { removePhoto: 'yes' }), 400, { field: 'removePhoto' });
    expect(ok<FeedSession>(await author.get(`/api/sessions/${created.id}`))).toMatchObject({ title: 'Original', duration: 90 });
  });

  it('only the owner edits or deletes: a friend gets 403, someone who cannot see it 404', async () => {
    const [author, friend, stranger] = [await t.user({ private: true }), await t.user(), await t.user()];
    await t.befriend(author, friend);
    const { id } = await t.logSession(author, { title: 'Mine' });
    expectError(await friend.form('PUT', `/api/sessions/${id}`, { title: 'Hijacked' }), 403);
    expectError(await friend.delete(`/api/sessions/${id}`), 403);
    expectError(await stranger.form('PUT', `/api/sessions/${id}`, { title: 'Hijacked' }), 404);
    expectError(await stranger.delete(`/api/sessions/${id}`), 404);
    // A non-owner's photo is not stored: ownership is checked before the upload.
    expectError(await friend.form('PUT', `/api/sessions/${id}`, {}, { data: await jpeg() }), 403);
    expect(await t.prisma.beerSession.findUnique({ where: { id } })).toMatchObject({ title: 'Mine', photo: null });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['session.created.v1']);
  });

  it('a public session: anyone may see it, still only the owner changes it (403)', async () => {
    const [author, stranger] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    ok(await stranger.get(`/api/sessions/${id}`));
    expectError(await stranger.form('PUT', `/api/sessions/${id}`, { title: 'x' }), 403);
    expectError(await stranger.delete(`/api/sessions/${id}`), 403);
  });
});

describe('deleting a session', () => {
  it('removes it (then 404) and publishes session.deleted.v1', async () => {
    const author = await t.user();
    const { id } = await t.logSession(author, { beerCount: '2' });
    const res = await author.delete(`/api/sessions/${id}`);
    expect(res.statusCode, res.body).toBe(204);
    expectError(await author.get(`/api/sessions/${id}`), 404);
    expectError(await author.delete(`/api/sessions/${id}`), 404);
    expect(await t.prisma.beerSession.count({ where: { id } })).toBe(0);
    expect(await eventsOf(id)).toEqual([
      expect.objectContaining({ type: 'session.created.v1' }),
      { type: 'session.deleted.v1', data: { sessionId: id, userId: author.id } },
    ]);
  });
});
