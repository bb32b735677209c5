import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION_BOUND_MS } from '@hoptrack/testing';
import { startTestMedia, type TestMedia } from './support';

/**
 * Issue 19, item 5: POST /api/albums/:id/photos checks that the caller owns
 * the album before it reads the body. Up to ten 10 MB photos are buffered for
 * an upload; someone who may not add to the album must not make the service
 * read (and hold) that much first. The proof: a request that declares 40 MB
 * and sends 64 KB of it gets its 404 while the rest has not been sent.
 */
let media: TestMedia;
let baseUrl: string;
beforeAll(async () => {
  media = await startTestMedia();
  await media.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(media.app.server.address() as AddressInfo).port}`;
});
afterAll(() => media.close());

/** Starts an upload of `declared` bytes, sends the first 64 KB, and resolves the status of the answer that comes before the rest. */
function partialUpload(albumId: string, headers: Record<string, string>): Promise<{ status: number; sentBytes: number; declared: number }> {
  const boundary = `----hoptrack${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const declared = 40 * 1024 * 1024;
  const chunk = Buffer.concat([head, Buffer.alloc(64 * 1024, 0xff)]);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/api/albums/${albumId}/photos`, {
      method: 'POST',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(declared) },
    });
    const bound = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${CONDITION_BOUND_MS} ms while the body was incomplete: the route waits for the body before checking ownership`));
    }, CONDITION_BOUND_MS);
    req.on('response', (res) => {
      clearTimeout(bound);
      res.resume();
      resolve({ status: res.statusCode ?? 0, sentBytes: chunk.length, declared });
      req.destroy();
    });
    req.on('error', (err) => {
      // The server may close the socket after answering; the answer is what counts.
      if (!req.destroyed) reject(err);
    });
    req.write(chunk);
  });
}

describe('adding photos to an album', () => {
  it("answers 404 for someone else's album before reading the body", async () => {
    const owner = randomUUID();
    const other = randomUUID();
    const album = (await media.app.inject({ method: 'POST', url: '/api/albums', headers: await media.bearer(owner), payload: { name: 'Mine' } })).json<{ id: string }>();
    const answer = await partialUpload(album.id, await media.bearer(other));
    expect(answer.status).toBe(404);
    expect(answer.sentBytes).toBeLessThan(answer.declared / 100);
  });

  it('answers 404 for an album that does not exist, the same way', async () => {
    const answer = await partialUpload(randomUUID(), await media.bearer(randomUUID()));
    expect(answer.status).toBe(404);
  });
});
