import { randomUUID } from 'node:crypto';
import type { CurrentUser, StoredImageResponse, UploadUrlResponse } from '@hoptrack/proto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 25, item 7, through the gateway: the spec's client names its new
 * profile picture by the `uploadURL` it was given (spec section 7), the web
 * app by the URL the upload answered; both are accepted, and only links this
 * deployment issued to that person.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
});
afterAll(async () => {
  await stack?.stop();
});

const picture = () => sharp({ create: { width: 64, height: 64, channels: 3, background: '#c8811a' } }).png().toBuffer();

/** POST /api/profile-picture/upload, then the bytes PUT on the link, as the spec's client does. */
async function upload(user: RegisteredUser): Promise<{ uploadURL: string; stored: StoredImageResponse }> {
  const { uploadURL } = (await expectApi(stack.baseUrl, user.token, 'POST', '/api/profile-picture/upload')) as UploadUrlResponse;
  const put = await fetch(new URL(uploadURL, stack.baseUrl), { method: 'PUT', body: new Uint8Array(await picture()), headers: { 'content-type': 'image/png' } });
  expect(put.status).toBe(200);
  return { uploadURL, stored: (await put.json()) as StoredImageResponse };
}

const setPicture = (user: RegisteredUser, profilePictureUrl: string) => callApi(stack.baseUrl, user.token, 'PUT', '/api/me/profile-picture', { profilePictureUrl });

describe('PUT /api/me/profile-picture through the gateway', () => {
  it('takes the uploadURL the client was given and keeps the stored picture it names', { timeout: 60_000 }, async () => {
    const alice = await registerUser(stack.baseUrl, 'picalice');
    const { uploadURL, stored } = await upload(alice);
    const answer = await setPicture(alice, uploadURL);
    expect(answer.status).toBe(200);
    // What is kept is where the picture is served, never the link (which expires).
    expect((answer.body as CurrentUser).profilePicture).toBe(stored.url);
    expect(((await expectApi(stack.baseUrl, alice.token, 'GET', '/api/me')) as CurrentUser).profilePicture).toBe(stored.url);
    const served = await fetch(new URL(stored.url, stack.baseUrl));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');

    // A stored picture's URL is taken only as the one she has (issue 39: any path under /avatars/ was
    // taken, someone else's or one made up): her own current one, sent again, changes nothing...
    expect((await setPicture(alice, stored.url)).status).toBe(200);
    // ...while the URL of another upload, sent without its link, is refused; the link is what counts.
    const second = await upload(alice);
    expect(await setPicture(alice, second.stored.url)).toMatchObject({ status: 400, body: { field: 'profilePictureUrl' } });
    const again = await setPicture(alice, second.uploadURL);
    expect(again.status).toBe(200);
    expect((again.body as CurrentUser).profilePicture).toBe(second.stored.url);

    // A link takes one upload: the picture behind a served URL never changes.
    const reused = await fetch(new URL(uploadURL, stack.baseUrl), { method: 'PUT', body: new Uint8Array(await picture()), headers: { 'content-type': 'image/png' } });
    expect(reused.status).toBe(409);
  });

  it('refuses a link issued to someone else, a forged or altered one, and anything that is not ours', { timeout: 60_000 }, async () => {
    const [alice, bob] = await Promise.all([registerUser(stack.baseUrl, 'picowner'), registerUser(stack.baseUrl, 'picother')]);
    const { uploadURL } = await upload(alice);
    const [body = '', signature = ''] = uploadURL.replace('/api/media/uploads/', '').split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), u: bob.id })).toString('base64url');
    for (const url of [
      uploadURL, // Alice's link, sent by Bob
      `/api/media/uploads/${forgedClaims}.${signature}`, // Alice's signature on claims naming Bob
      `/api/media/uploads/${body}.${signature.slice(0, -2)}xx`,
    ]) {
      const refused = await setPicture(bob, url);
      expect(refused.status, url).toBe(400);
      expect(refused.body).toMatchObject({ field: 'profilePictureUrl' });
    }
    // Alice's picture, or one made up under Bob's own id: no upload of his.
    for (const url of [((await expectApi(stack.baseUrl, alice.token, 'GET', '/api/me')) as CurrentUser).profilePicture ?? '', `/api/media/files/avatars/${bob.id}/${randomUUID()}.webp`]) {
      expect(await setPicture(bob, url), url).toMatchObject({ status: 400, body: { field: 'profilePictureUrl', message: 'Must be a picture uploaded through /api/profile-picture/upload' } });
    }
    const outside = await setPicture(bob, `${stack.baseUrl}${uploadURL}`);
    expect(outside).toMatchObject({ status: 400, body: { field: 'profilePictureUrl', message: 'Must be a picture uploaded through /api/profile-picture/upload' } });
    expect(((await expectApi(stack.baseUrl, bob.token, 'GET', '/api/me')) as CurrentUser).profilePicture).toBeNull();
  });
});
