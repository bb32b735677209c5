import { randomUUID } from 'node:crypto';
import { audienceRows, eventually, publishEvent } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithGps } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

let media: TestMedia;
beforeAll(async () => {
  media = await startTestMedia();
});
afterAll(() => media.close());

/**
 * Album image URLs are bound to the viewer they were handed to, and the file
 * route re-checks that viewer's right on every fetch: a block or an
 * unfriending revokes the URLs handed out before it (issue 9, the visibility
 * matrix found them serving for a day after a block).
 */
describe('signed album image URLs', () => {
  it('stop serving when the viewer may no longer see the photos, and are not valid for another viewer', async () => {
    const [owner, friend, other] = [randomUUID(), randomUUID(), randomUUID()];
    const now = new Date().toISOString();
    await publishEvent(media.bus, 'user.registered.v1', {
      id: owner, email: 'owner@example.com', username: `u${Date.now()}`, displayName: 'Owner', bio: null, avatar: null, profilePicture: null,
      isProfilePrivate: true, allowDirectMessages: true, showOnlineStatus: true, tokenVersion: 0, createdAt: now, updatedAt: now,
    });
    await publishEvent(media.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: friend, recipientId: owner });
    await eventually(async () => (await audienceRows(media.prisma, 'follows', { followee_id: owner, is_friend: true })) === 1 && (await audienceRows(media.prisma, 'users', { id: owner })) === 1);

    const headers = (userId: string) => media.bearer(userId);
    const album = (await media.app.inject({ method: 'POST', url: '/api/albums', headers: await headers(owner), payload: { name: 'Private' } })).json();
    const body = multipart([{ name: 'photos', filename: 'a.jpg', contentType: 'image/jpeg', value: await jpegWithGps(400, 300) }]);
    const [created] = (await media.app.inject({ method: 'POST', url: `/api/albums/${album.id}/photos`, headers: { ...(await headers(owner)), ...body.headers }, payload: body.payload })).json();
    await media.process(created.id);
    const [photo] = (await media.app.inject({ method: 'GET', url: `/api/albums/${album.id}/photos`, headers: await headers(friend) })).json();
    const get = (url: string) => media.app.inject({ method: 'GET', url });

    expect(new URL(photo.url, 'http://x').searchParams.get('v')).toBe(friend);
    expect((await get(photo.url)).statusCode).toBe(200);
    expect((await get(photo.thumbnailUrl)).statusCode).toBe(200);
    // The same signature with another viewer's id: refused.
    expect((await get(photo.url.replace(`v=${friend}`, `v=${other}`))).statusCode).toBe(404);

    await publishEvent(media.bus, 'social.user.blocked.v1', { blockerId: owner, blockedId: friend });
    await eventually(async () => (await audienceRows(media.prisma, 'blocks', { blocker_id: owner, blocked_id: friend })) === 1);
    expect((await get(photo.url)).statusCode).toBe(404);
    expect((await get(photo.thumbnailUrl)).statusCode).toBe(404);

    // The owner's own URLs keep working.
    const [own] = (await media.app.inject({ method: 'GET', url: `/api/albums/${album.id}/photos`, headers: await headers(owner) })).json();
    expect((await get(own.url)).statusCode).toBe(200);
  });
});
