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

  it.each([
    ['an SVG', [{ name: 'file', filename: 'x.svg', contentType: 'image/svg+xml', value: SVG }]],
    ['a wrong field name', [{ name: 'photo', filename: 'x.jpg', contentType: 'image/jpeg', value: Buffer.from('x') }]],
  ])('refuses %s with 400', async (_name, parts) => {
    expect((await upload(parts)).statusCode).toBe(400);
  });
});
