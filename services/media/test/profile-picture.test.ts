import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decompressionBomb, HTML_AS_JPEG, jpegWithGps, png, SVG } from './images';
import { startTestMedia, type TestMedia } from './support';

let media: TestMedia;
beforeAll(async () => {
  media = await startTestMedia();
});
afterAll(() => media.close());

async function uploadUrl(userId = randomUUID()): Promise<string> {
  const res = await media.app.inject({ method: 'POST', url: '/api/profile-picture/upload', headers: await media.bearer(userId) });
  expect(res.statusCode).toBe(200);
  return res.json().uploadURL;
}

const put = (url: string, body: Buffer, contentType = 'image/jpeg') =>
  media.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });

async function storedBytes(url: string): Promise<Buffer> {
  const object = await media.store.get(url.replace('/api/media/files/', ''));
  if (!object) throw new Error(`nothing stored for ${url}`);
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('profile picture upload', () => {
  it('stores a square WebP without any metadata and serves it with long caching', async () => {
    const userId = randomUUID();
    const url = await uploadUrl(userId);
    expect(url).toMatch(/^\/api\/media\/uploads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const res = await put(url, await jpegWithGps());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ width: 512, height: 512, contentType: 'image/webp' });
    expect(body.url).toMatch(new RegExp(`^/api/media/files/avatars/${userId}/[0-9a-f-]{36}\\.webp$`));

    const stored = await storedBytes(body.url);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(stored.includes(Buffer.from('Pocket 9'))).toBe(false);

    const served = await media.app.inject({ method: 'GET', url: body.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(stored)).toBe(true);
  });

  it('stores a link\'s picture under the link\'s own id, so the upload URL names it (the auth service accepts either)', async () => {
    const userId = randomUUID();
    const url = await uploadUrl(userId);
    const claims = JSON.parse(Buffer.from(url.replace('/api/media/uploads/', '').split('.')[0] ?? '', 'base64url').toString()) as { id: string };
    expect((await put(url, await png())).json().url).toBe(`/api/media/files/avatars/${userId}/${claims.id}.webp`);
  });

  it('never changes the bytes behind a served URL: a link takes one upload, a second one (even at once) is refused', async () => {
    const url = await uploadUrl();
    const first = await put(url, await png());
    expect(first.statusCode).toBe(200);
    const before = await storedBytes(first.json().url);
    const second = await put(url, await jpegWithGps());
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('This upload link has already been used; ask for a new one');
    expect((await storedBytes(first.json().url)).equals(before)).toBe(true);

    const racing = await uploadUrl();
    const answers = await Promise.all([put(racing, await png()), put(racing, await jpegWithGps())]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('decides by the bytes, not the declared type: a PNG sent as octet-stream is fine', async () => {
    const res = await put(await uploadUrl(), await png(), 'application/octet-stream');
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a text file named like a JPEG', Buffer.from('just some text, honestly'), 'image/jpeg'],
    ['an SVG (scripts inside images)', SVG, 'image/svg+xml'],
    ['an HTML page named like a JPEG', HTML_AS_JPEG, 'image/jpeg'],
    ['a 20,000 × 20,000 PNG', decompressionBomb(20_000), 'image/png'],
    ['a truncated JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), 'image/jpeg'],
    ['an empty body', Buffer.alloc(0), 'image/png'],
  ])('refuses %s with 400', async (_name, bytes, type) => {
    const res = await put(await uploadUrl(), bytes, type);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, field: 'file' });
  });

  it('refuses a decompression bomb with 400 without decoding it', async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(2000);
    const before = process.memoryUsage().rss;
    const res = await put(await uploadUrl(), bomb, 'image/png');
    expect(res.statusCode).toBe(400);
    const grown = process.memoryUsage().rss - before;
    console.info(`[figure] decompression bomb (100,000 × 100,000 PNG, ${bomb.length} bytes): media memory grew ${(grown / 1024 / 1024).toFixed(1)} MiB`);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });

  it('answers 413 to a file over 5 MB', async () => {
    const res = await put(await uploadUrl(), Buffer.alloc(6 * 1024 * 1024, 1), 'image/jpeg');
    expect(res.statusCode).toBe(413);
    expect(res.json().statusCode).toBe(413);
  });
});

describe('upload URLs', () => {
  it('need a signed-in user to be issued', async () => {
    const res = await media.app.inject({ method: 'POST', url: '/api/profile-picture/upload' });
    expect(res.statusCode).toBe(401);
  });

  it('refuse a tampered token', async () => {
    const url = await uploadUrl();
    const [prefix, signature] = url.split('.');
    const tampered = `${prefix}x.${signature}`;
    const res = await put(tampered, await png());
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Upload link expired or invalid');
  });

  it('expire after their time to live', async () => {
    const url = await uploadUrl();
    media.clock.advance((media.config.UPLOAD_URL_TTL_SECONDS + 1) * 1000);
    const res = await put(url, await png());
    expect(res.statusCode).toBe(403);
  });

  it('refuse a malformed token with 400', async () => {
    const res = await put('/api/media/uploads/not%20a%20token', await png());
    expect(res.statusCode).toBe(400);
  });
});

describe('serving files', () => {
  it.each(['avatars/x/y.webp', 'secrets/../avatars/a.webp', `avatars/${randomUUID()}/${randomUUID()}.webp`])(
    'answers 404 for %s',
    async (key) => {
      const res = await media.app.inject({ method: 'GET', url: `/api/media/files/${key}` });
      expect(res.statusCode).toBe(404);
    },
  );

  it('reports Postgres, NATS and S3 on /readyz', async () => {
    const res = await media.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', nats: 'ok', s3: 'ok' } });
  });
});
