import { randomUUID } from 'node:crypto';
import { UploadTokens } from '@hoptrack/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestAuth, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth();
});
afterAll(() => auth.close());

const call = (method: 'PUT' | 'PATCH' | 'GET' | 'DELETE', url: string, token: string, payload?: object) =>
  auth.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('PUT /api/privacy', () => {
  it('saves each switch on its own and keeps the others', async () => {
    const { token } = await auth.register();
    const first = await call('PUT', '/api/privacy', token, { isProfilePrivate: true });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ isProfilePrivate: true, allowDirectMessages: true, showOnlineStatus: true });
    await call('PUT', '/api/privacy', token, { allowDirectMessages: false });
    await call('PUT', '/api/privacy', token, { showOnlineStatus: false });
    const me = await call('GET', '/api/me', token);
    expect(me.json()).toMatchObject({ isProfilePrivate: true, allowDirectMessages: false, showOnlineStatus: false });
  });

  it('keeps the e-mail address from friends until "Show my e-mail to friends" is on, and tells the other services (issue 40)', async () => {
    const { token, userId } = await auth.register();
    expect((await call('GET', '/api/me', token)).json()).toMatchObject({ showEmailToFriends: false });
    const on = await call('PUT', '/api/privacy', token, { showEmailToFriends: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ showEmailToFriends: true, isProfilePrivate: false });
    const updates = (await auth.events()).filter((e) => e.type === 'user.updated.v1' && e.data.id === userId);
    expect(updates.at(-1)?.data).toMatchObject({ showEmailToFriends: true });
  });

  it.each([
    [{}, 'isProfilePrivate', 'Provide at least one of isProfilePrivate, allowDirectMessages, showOnlineStatus, showEmailToFriends'],
    [{ showEmailToFriends: 'yes' }, 'showEmailToFriends', 'showEmailToFriends must be a boolean'],
    [{ isProfilePrivate: 'yes' }, 'isProfilePrivate', 'isProfilePrivate must be a boolean'],
    [{ showOnlineStatus: 1 }, 'showOnlineStatus', 'showOnlineStatus must be a boolean'],
  ])('rejects %j', async (payload, field, message) => {
    const { token } = await auth.register();
    const res = await call('PUT', '/api/privacy', token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field, message });
  });

  it('requires a signed-in user', async () => {
    const res = await auth.app.inject({ method: 'PUT', url: '/api/privacy', payload: { isProfilePrivate: true } });
    expect(res.statusCode).toBe(401);
  });
});

describe('PATCH /api/me', () => {
  it('updates display name and bio', async () => {
    const { token } = await auth.register();
    const res = await call('PATCH', '/api/me', token, { displayName: '  Hop Head ', bio: 'IPA forever' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ displayName: 'Hop Head', bio: 'IPA forever' });
  });

  it.each([
    [{ bio: 'b'.repeat(201) }, 'bio', 'Bio must be at most 200 characters'],
    [{ displayName: '' }, 'displayName', 'Display name is required'],
    [{ displayName: 'n'.repeat(51) }, 'displayName', 'Display name must be at most 50 characters'],
    [{}, 'displayName', 'Provide displayName or bio'],
  ])('rejects %j', async (payload, field, message) => {
    const { token } = await auth.register();
    const res = await call('PATCH', '/api/me', token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field, message });
  });

  it('accepts a bio of exactly 200 characters', async () => {
    const { token } = await auth.register();
    expect((await call('PATCH', '/api/me', token, { bio: 'b'.repeat(200) })).statusCode).toBe(200);
  });
});

describe('PUT /api/me/profile-picture', () => {
  /** Links as the media service issues them, with the key both services derive from FILE_URL_SECRET (on the app's clock). */
  const uploads = () => new UploadTokens(auth.config.FILE_URL_SECRET, auth.clock.now);
  const stored = '/api/media/files/avatars/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/5e0c2f9e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.webp';

  it("refuses a stored picture's URL that is not the person's own picture: someone else's, or one made up under their id (issue 39)", async () => {
    const { token, userId } = await auth.register();
    for (const url of [stored, `/api/media/files/avatars/${userId}/${randomUUID()}.webp`]) {
      const res = await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ field: 'profilePictureUrl', message: 'Must be a picture uploaded through /api/profile-picture/upload' });
    }
  });

  it('takes the picture the person has, sent again, unchanged', async () => {
    const { token, userId } = await auth.register();
    const kept = (await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl: uploads().issue(userId, 60).url })).json().profilePicture;
    const again = await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl: kept });
    expect(again.statusCode).toBe(200);
    expect(again.json().profilePicture).toBe(kept);
  });

  it('takes the upload URL the client was given (spec section 7) and keeps the picture it names', async () => {
    const { token, userId } = await auth.register();
    const link = uploads().issue(userId, 60);
    const res = await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl: link.url });
    expect(res.statusCode).toBe(200);
    expect(res.json().profilePicture).toBe(`/api/media/files/avatars/${userId}/${link.claims.id}.webp`);
  });

  it.each([
    ['issued to someone else', (_me: string) => uploads().issue(randomUUID(), 60).url],
    ['expired', (me: string) => uploads().issue(me, -1).url],
    ['signed with another key', (me: string) => new UploadTokens('another-secret-of-at-least-32-characters!').issue(me, 60).url],
  ])('refuses an upload URL %s', async (_case, linkFor) => {
    const { token, userId } = await auth.register();
    const res = await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl: linkFor(userId) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'profilePictureUrl', message: 'Upload link expired or invalid' });
  });

  it.each([
    'https://evil.example/pixel.png',
    'javascript:alert(1)',
    '//evil.example.com/x.png',
    '/api/media/files/thumbs/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/5e0c2f9e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.webp',
    '/api/media/files/avatars/../../secret.webp',
    '',
  ])('rejects %j', async (profilePictureUrl) => {
    const { token } = await auth.register();
    const res = await call('PUT', '/api/me/profile-picture', token, { profilePictureUrl });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('profilePictureUrl');
  });
});

describe('DELETE /api/me/profile-picture (issue 40)', () => {
  const uploads = () => new UploadTokens(auth.config.FILE_URL_SECRET, auth.clock.now);
  const withPicture = async () => {
    const person = await auth.register();
    const set = await call('PUT', '/api/me/profile-picture', person.token, { profilePictureUrl: uploads().issue(person.userId, 60).url });
    expect(set.json().profilePicture).toMatch(/^\/api\/media\/files\/avatars\//);
    return person;
  };

  it('takes the picture away, tells the other services, and answers 404 once there is none', async () => {
    const { token, userId } = await withPicture();
    const removed = await call('DELETE', '/api/me/profile-picture', token);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: userId, profilePicture: null });
    expect((await call('GET', '/api/me', token)).json().profilePicture).toBeNull();
    // The profile event every service keeps its people (and their cached pictures) from.
    const updates = (await auth.events()).filter((e) => e.type === 'user.updated.v1' && e.data.id === userId);
    expect(updates.at(-1)?.data).toMatchObject({ profilePicture: null });

    const again = await call('DELETE', '/api/me/profile-picture', token);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'You have no profile picture to remove' });
  });

  it("removes only the caller's own picture: there is no way to name anyone else's", async () => {
    const owner = await withPicture();
    const other = await auth.register();
    expect((await call('DELETE', '/api/me/profile-picture', other.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/me', owner.token)).json().profilePicture).not.toBeNull();
  });

  it('requires a signed-in user, and a valid token', async () => {
    expect((await auth.app.inject({ method: 'DELETE', url: '/api/me/profile-picture' })).statusCode).toBe(401);
    expect((await call('DELETE', '/api/me/profile-picture', 'not-a-token')).statusCode).toBe(401);
  });
});
