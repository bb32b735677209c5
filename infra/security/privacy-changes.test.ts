import type { FeedSession } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 9, item 13: a privacy change holds from the moment its answer
 * arrives. Other services learn of it by events; the write waits for their
 * read models (ReadModelBarrier) before answering. Each check reads at once
 * after the answer, never after a pause.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
});
afterAll(async () => {
  await stack?.stop();
});

const status = async (user: RegisteredUser, path: string) => (await callApi(stack.baseUrl, user.token, 'GET', path)).status;
const body = async (user: RegisteredUser, path: string) => JSON.stringify((await callApi(stack.baseUrl, user.token, 'GET', path)).body);

async function friends(a: RegisteredUser, b: RegisteredUser): Promise<void> {
  await eventually(async () => (await status(a, `/api/users/${b.id}`)) === 200 && (await status(b, `/api/users/${a.id}`)) === 200, 'graph knows both');
  const request = (await expectApi(stack.baseUrl, a.token, 'POST', '/api/friendships', { friendId: b.id }, 201)) as { id: string };
  await expectApi(stack.baseUrl, b.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
}

/** An album with one processed photo; returns the album id. */
async function albumWithPhoto(owner: RegisteredUser): Promise<string> {
  const album = (await expectApi(stack.baseUrl, owner.token, 'POST', '/api/albums', { name: 'Private later' }, 201)) as { id: string };
  const form = new FormData();
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#841' } }).jpeg().toBuffer();
  form.append('photos', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'p.jpg');
  const res = await fetch(`${stack.baseUrl}/api/albums/${album.id}/photos`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  await eventually(
    async () => ((await callApi(stack.baseUrl, owner.token, 'GET', `/api/albums/${album.id}/photos`)).body as Array<{ status: string }>).every((p) => p.status === 'ready'),
    'photo processed',
    30_000,
  );
  return album.id;
}

describe('privacy changes hold from the moment they answer', () => {
  it('a block during an in-flight fan-out: nothing of the blocker reaches the blocked from the answer on', { timeout: 120_000 }, async () => {
    let leaks = 0;
    const ROUNDS = 4;
    for (let round = 0; round < ROUNDS; round++) {
      const author = await registerUser(stack.baseUrl, `blkauthor${round}`);
      const reader = await registerUser(stack.baseUrl, `blkreader${round}`);
      await friends(author, reader);
      const earlier: FeedSession = await logSessionViaApi(stack.baseUrl, author, { title: `Before the block ${round}` });
      await eventually(async () => (await body(reader, '/api/sessions?filter=all')).includes(earlier.id), 'earlier session in the reader feed');
      // A new session's fan-out is in flight when the block comes.
      const inFlight = await logSessionViaApi(stack.baseUrl, author, { title: `During the block ${round}` });
      await expectApi(stack.baseUrl, author.token, 'POST', `/api/friends/${reader.id}/block`, {}, undefined);
      // Read at once: feed, profile, the author's sessions and albums.
      const seen = [
        await body(reader, '/api/sessions?filter=all'),
        await body(reader, `/api/users/${author.id}/sessions`),
        await body(reader, `/api/albums?userId=${author.id}`),
        await body(reader, `/api/users/search?q=${author.username}`),
      ].join('\n');
      const leaked = [earlier.id, inFlight.id, author.id].filter((marker) => seen.includes(marker));
      leaks += leaked.length > 0 ? 1 : 0;
      expect(leaked, `round ${round}`).toEqual([]);
      expect(await status(reader, `/api/users/${author.id}`)).toBe(404);
    }
    console.info(`[figure] block during an in-flight fan-out, read at once after the answer: rounds leaking ${leaks} of ${ROUNDS}`);
  });

  it('switching to private hides earlier sessions and photos, image URLs included, from the answer on', { timeout: 120_000 }, async () => {
    const author = await registerUser(stack.baseUrl, 'goprivate');
    const stranger = await registerUser(stack.baseUrl, 'stranger');
    const friend = await registerUser(stack.baseUrl, 'friendly');
    await friends(author, friend);
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c60' } }).jpeg().toBuffer();
    const session = await logSessionViaApi(stack.baseUrl, author, { title: 'Public for now' }, { name: 's.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    const albumId = await albumWithPhoto(author);
    await eventually(async () => (await status(stranger, `/api/albums/${albumId}/photos`)) === 200, 'media knows the author');
    const photos = (await callApi(stack.baseUrl, stranger.token, 'GET', `/api/albums/${albumId}/photos`)).body as Array<{ url: string; thumbnailUrl: string }>;
    // The session photo as the stranger was shown it (signed for them), with the album images.
    const listed = (await callApi(stack.baseUrl, stranger.token, 'GET', `/api/users/${author.id}/sessions`)).body as Array<{ photos: string[] }>;
    const urls = [...photos.flatMap((p) => [p.url, p.thumbnailUrl]), ...listed.flatMap((s) => s.photos)];
    expect(listed.flatMap((s) => s.photos)).toHaveLength(1);
    for (const url of urls) expect((await fetch(`${stack.baseUrl}${url}`)).status, url).toBe(200);
    expect(await body(stranger, `/api/users/${author.id}/sessions`)).toContain(session.id);

    await expectApi(stack.baseUrl, author.token, 'PUT', '/api/privacy', { isProfilePrivate: true });
    // At once: the stranger sees none of it, the image URLs handed out before included; the friend still does.
    expect(await status(stranger, `/api/users/${author.id}/sessions`)).toBe(403);
    expect(await status(stranger, `/api/albums/${albumId}/photos`)).toBe(403);
    expect(await body(stranger, `/api/sessions/${session.id}`)).not.toContain('Public for now');
    for (const url of urls) expect((await fetch(`${stack.baseUrl}${url}`)).status, url).toBe(404);
    expect(await body(friend, `/api/users/${author.id}/sessions`)).toContain(session.id);
    expect(await status(friend, `/api/albums/${albumId}/photos`)).toBe(200);
  });

  it('an unfriended friend of a private profile loses its sessions at once', { timeout: 60_000 }, async () => {
    const author = await registerUser(stack.baseUrl, 'unfriender');
    const former = await registerUser(stack.baseUrl, 'former');
    await friends(author, former);
    await expectApi(stack.baseUrl, author.token, 'PUT', '/api/privacy', { isProfilePrivate: true });
    const session = await logSessionViaApi(stack.baseUrl, author, { title: 'Friends only' });
    await eventually(async () => (await body(former, `/api/users/${author.id}/sessions`)).includes(session.id), 'the friend sees it');
    await expectApi(stack.baseUrl, author.token, 'DELETE', `/api/friends/${former.id}`, undefined, undefined);
    expect(await status(former, `/api/users/${author.id}/sessions`)).toBe(403);
    expect(await body(former, '/api/sessions?filter=all')).not.toContain(session.id);
  });
});
