import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { Client, type BucketItem } from 'minio';
import { isStorageOutage, StorageUnavailable } from './outage';

/** Socket errors that say nothing about the request: worth one more try. */
const TRANSIENT_NETWORK_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
}

/** An object as a listing shows it. */
export interface ListedObject {
  key: string;
  /** When S3 finished storing it (its clock). */
  lastModified: Date;
}

const isMissing = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
};

/** An outage becomes StorageUnavailable; any other error stays as it is. */
function translated(operation: string, err: unknown): unknown {
  return isStorageOutage(err) && !(err instanceof StorageUnavailable) ? new StorageUnavailable(operation, { cause: err }) : err;
}

/**
 * Node's request with an idle timeout until the answer starts: a store that
 * accepts connections but does not answer (or stops taking an upload's body)
 * fails the call after `ms` of silence instead of holding a request or a job
 * forever; the minio client sets no timeout of its own. Once the answer has
 * started the timeout is off: a file streamed to a slow browser leaves the
 * store's socket idle for as long as the browser takes.
 */
function timingOut(transport: typeof http | typeof https, ms: number): { request: typeof http.request } {
  const request = (options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void): http.ClientRequest => {
    const req = transport.request(options, callback);
    req.setTimeout(ms, () => req.destroy(Object.assign(new Error(`object storage sent nothing for ${ms} ms`), { code: 'ETIMEDOUT' })));
    req.once('response', () => req.setTimeout(0));
    return req;
  };
  return { request: request as typeof http.request };
}

/**
 * Every file goes through here, to one S3 bucket, whatever serves the S3 API
 * (MinIO, s3rver, a cloud bucket). There is no second code path to local disk.
 * A store that is down, failing (5xx) or silent fails every call with
 * StorageUnavailable, so the API answers 503 and jobs wait, in one place.
 */
export class ObjectStore {
  private readonly client: Client;

  constructor(
    endpoint: string,
    credentials: { accessKey: string; secretKey: string; region: string },
    private readonly bucket: string,
    options: { requestTimeoutMs?: number } = {},
  ) {
    const url = new URL(endpoint);
    const secure = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: Number(url.port || (secure ? 443 : 80)),
      useSSL: secure,
      accessKey: credentials.accessKey,
      secretKey: credentials.secretKey,
      region: credentials.region,
      pathStyle: true,
      transport: timingOut(secure ? https : http, options.requestTimeoutMs ?? 10_000),
    });
  }

  /** Creates the bucket at start-up when it does not exist yet. */
  async ensureBucket(region: string): Promise<void> {
    // At start-up the store may drop a connection (seen with a replica starting while the store
    // was busy with the uploads of the one just killed): tried again, a few times, before giving up.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.makeBucketIfMissing(region);
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (attempt >= 5 || !TRANSIENT_NETWORK_ERRORS.has(code)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  private async makeBucketIfMissing(region: string): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, region);
    } catch (err) {
      // The API and the worker start together; whichever loses the race finds the bucket made.
      const code = (err as { code?: string }).code;
      if (code !== 'BucketAlreadyExists' && code !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.attempt('put', () => this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType }));
  }

  /**
   * Stores a stream of exactly `size` bytes (the export zips): up to the client's part
   * size (64 MiB) in one PUT, beyond it as a multipart upload of such parts, so
   * memory holds one part, never the whole object.
   */
  async putStream(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    await this.attempt('put', () => this.client.putObject(this.bucket, key, body, size, { 'Content-Type': contentType }));
  }

  /** The object's size in bytes, or null when there is none under that key. */
  async size(key: string): Promise<number | null> {
    return this.unlessMissing('stat', async () => (await this.client.statObject(this.bucket, key)).size);
  }

  /** Whether anything is stored under the key. */
  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  /** The object, or null when there is none under that key. */
  async get(key: string): Promise<StoredObject | null> {
    return this.unlessMissing('get', async () => {
      const stat = await this.client.statObject(this.bucket, key);
      const stream = await this.client.getObject(this.bucket, key);
      const contentType = String(stat.metaData['content-type'] ?? 'application/octet-stream');
      return { stream, size: stat.size, contentType };
    });
  }

  /**
   * The whole object in memory (images are bounded by the upload limits), or null.
   * One GET, no HEAD before it (the answer's Content-Length sizes the buffer), and
   * the bytes copied once into it rather than gathered and concatenated.
   */
  async getBuffer(key: string): Promise<Buffer | null> {
    // The reading too: a store that dies half-way through the body is an outage like one that refuses the GET.
    return this.unlessMissing('get', async () => readWhole(key, await this.client.getObject(this.bucket, key)));
  }

  async remove(key: string): Promise<void> {
    await this.attempt('remove', () => this.client.removeObject(this.bucket, key));
  }

  /**
   * Removes the keys in as few calls as S3 allows (1,000 keys each); answers
   * the keys it could not remove (S3 reports each failure on its own).
   */
  async removeMany(keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const answers = await this.attempt('remove', () => this.client.removeObjects(this.bucket, [...keys]));
    return answers.flatMap((answer) => (answer?.Error?.Key ? [answer.Error.Key] : []));
  }

  /** Every key under a prefix (operators' sweeps, and the tests that prove nothing is left behind). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const entry of this.entries(prefix)) keys.push(entry.key);
    return keys;
  }

  /**
   * Every object under a prefix with when it was written, page by page as S3
   * lists them (1,000 a call): the orphan sweep reads a bucket of any size
   * holding one page in memory.
   */
  async *entries(prefix: string): AsyncGenerator<ListedObject> {
    try {
      for await (const item of this.client.listObjectsV2(this.bucket, prefix, true) as AsyncIterable<BucketItem>) {
        if (item.name) yield { key: item.name, lastModified: item.lastModified };
      }
    } catch (err) {
      throw translated('list', err);
    }
  }

  /** Runs one call to the store: an outage comes out as StorageUnavailable. */
  private async attempt<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw translated(operation, err);
    }
  }

  /** The same, with null for a key under which nothing is stored. */
  private unlessMissing<T>(operation: string, call: () => Promise<T>): Promise<T | null> {
    return this.attempt(operation, () =>
      call().catch((err: unknown) => {
        if (isMissing(err)) return null;
        throw err;
      }),
    );
  }

  /** Readiness: the bucket answers. */
  async check(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} is missing`);
  }
}

/** An object's body read into one buffer sized by its Content-Length. */
async function readWhole(key: string, stream: Readable & { headers?: Record<string, string | string[] | undefined> }): Promise<Buffer> {
  const length = Number(stream.headers?.['content-length']);
  if (!Number.isSafeInteger(length) || length < 0) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  const body = Buffer.allocUnsafe(length);
  let filled = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (filled + bytes.length > length) throw new Error(`object ${key} is longer than its Content-Length (${length})`);
    bytes.copy(body, filled);
    filled += bytes.length;
  }
  if (filled !== length) throw new Error(`object ${key} ended after ${filled} of ${length} bytes`);
  return body;
}
