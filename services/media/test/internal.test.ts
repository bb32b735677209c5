import { randomUUID } from 'node:crypto';
import { FileSignature, FILES_PREFIX } from '@hoptrack/runtime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithGps, SVG } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

let media: TestMedia;
beforeAll(async () => {
  media = await startTestMedia();
});
afterAll(() => media.close());

const upload = (parts: Parameters<typeof multipart>[0]) => {
  const body = multipart(parts);
  return media.app.inject({ method: 'POST', url: '/internal/uploads', headers: body.headers, payload: body.payload });
};

describe('internal upload API (for other services)', () => {
  it('stores a cleaned display copy and answers its URL', async () => {
    const res = await upload([{ name: 'file', filename: 'session.jpg', contentType: 'image/jpeg', value: await jpegWithGps(2400, 1800) }]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ width: 1200, height: 1600, contentType: 'image/webp' });
    const served = await media.app.inject({ method: 'GET', url: body.url });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
  });

  it("stores an owner's photo under the owner, served only through a URL signed for a viewer who may see it", async () => {
    const owner = randomUUID();
    const res = await upload([
      { name: 'ownerId', value: owner },
      { name: 'file', filename: 'session.jpg', contentType: 'image/jpeg', value: await jpegWithGps(400, 300) },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const path: string = res.json().url;
    expect(path).toMatch(new RegExp(`^/api/media/files/uploads/${owner}/[0-9a-f-]{36}\\.webp$`));
    // The bare path is not enough; a signature for the owner (as the sessions service makes) is.
    expect((await media.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const key = path.slice(FILES_PREFIX.length);
    const signature = new FileSignature(media.config.FILE_URL_SECRET, 3600);
    expect((await media.app.inject({ method: 'GET', url: signature.url(key, owner) })).statusCode).toBe(200);
    // A forged signature, or one made for a key of another owner, is refused.
    expect((await media.app.inject({ method: 'GET', url: `${path}?exp=9999999999&v=${owner}&sig=forged` })).statusCode).toBe(404);
  });

  it('refuses an owner that is not a user id', async () => {
    const res = await upload([
      { name: 'ownerId', value: '../../etc' },
      { name: 'file', filename: 'session.jpg', contentType: 'image/jpeg', value: await jpegWithGps(40, 30) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('ownerId');
  });

  it.each([
    ['an SVG', [{ name: 'file', filename: 'x.svg', contentType: 'image/svg+xml', value: SVG }]],
    ['a wrong field name', [{ name: 'photo', filename: 'x.jpg', contentType: 'image/jpeg', value: Buffer.from('x') }]],
  ])('refuses %s with 400', async (_name, parts) => {
    expect((await upload(parts)).statusCode).toBe(400);
  });
});
