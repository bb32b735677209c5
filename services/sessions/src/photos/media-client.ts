import { storedImageResponse } from '@hoptrack/proto';
import { HttpError, REQUEST_ID_HEADER } from '@hoptrack/runtime';

/**
 * Session photos go to the media service's internal upload API (not through
 * the gateway): it checks the bytes are an image, strips metadata, stores it
 * in S3 and answers the URL to keep. Its 400 and 413 come back as ours, so the
 * person learns what was wrong with the file.
 */
export class MediaClient {
  constructor(private readonly baseUrl: string) {}

  /** Stores the photo as `ownerId`'s; answers the path to keep (shown to viewers signed, see PhotoUrls). */
  async upload(data: Buffer, filename: string, contentType: string, ownerId: string, requestId?: string): Promise<string> {
    const form = new FormData();
    form.append('ownerId', ownerId);
    form.append('file', new Blob([new Uint8Array(data)], { type: contentType }), filename);
    const send = () =>
      fetch(new URL('/internal/uploads', this.baseUrl), {
        method: 'POST',
        body: form,
        headers: requestId ? { [REQUEST_ID_HEADER]: requestId } : {},
        signal: AbortSignal.timeout(30_000),
      });
    let res: Response;
    try {
      // Once more when the connection failed (an instance of media restarting
      // under us): at worst the first attempt stored a file nobody points to.
      res = await send().catch((err: unknown) => {
        if (err instanceof Error && err.name === 'TimeoutError') throw err;
        return send();
      });
    } catch {
      throw new HttpError(503, 'Photos cannot be stored right now, please try again');
    }
    const body: unknown = await res.json().catch(() => null);
    if (res.status === 201) return storedImageResponse.parse(body).url;
    const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : 'The photo could not be stored';
    if (res.status === 400 || res.status === 413 || res.status === 415) throw new HttpError(res.status, message, 'sessionPhoto');
    throw new HttpError(503, 'Photos cannot be stored right now, please try again');
  }
}
