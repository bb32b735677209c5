import { Client } from 'minio';
import type { Readable } from 'node:stream';

/** Socket errors that say nothing about the request: worth one more try. */
const TRANSIENT_NETWORK_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
}

/**
 * Every file goes through here, to one S3 bucket, whatever serves the S3 API
 * (MinIO, s3rver, a cloud bucket). There is no second code path to local disk.
 */
export class ObjectStore {
  private readonly client: Client;

  constructor(
    endpoint: string,
    credentials: { accessKey: string; secretKey: string; region: string },
    private readonly bucket: string,
  ) {
    const url = new URL(endpoint);
    this.client = new Client({
      endPoint: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      useSSL: url.protocol === 'https:',
      accessKey: credentials.accessKey,
      secretKey: credentials.secretKey,
      region: credentials.region,
      pathStyle: true,
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
    await this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType });
  }

  /**
   * Stores a stream of exactly `size` bytes (the export zips): up to the client's part
   * size (64 MiB) in one PUT, beyond it as a multipart upload of such parts, so
   * memory holds one part, never the whole object.
   */
  async putStream(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, body, size, { 'Content-Type': contentType });
  }

  /** The object's size in bytes, or null when there is none under that key. */
  async size(key: string): Promise<number | null> {
    try {
      return (await this.client.statObject(this.bucket, key)).size;
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey') return null;
      throw err;
    }
  }

  /** Whether anything is stored under the key. */
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey') return false;
      throw err;
    }
  }

  /** The object, or null when there is none under that key. */
  async get(key: string): Promise<StoredObject | null> {
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const stream = await this.client.getObject(this.bucket, key);
      const contentType = String(stat.metaData['content-type'] ?? 'application/octet-stream');
      return { stream, size: stat.size, contentType };
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey') return null;
      throw err;
    }
  }

  /**
   * The whole object in memory (images are bounded by the upload limits), or null.
   * One GET, no HEAD before it (the answer's Content-Length sizes the buffer), and
   * the bytes copied once into it rather than gathered and concatenated.
   */
  async getBuffer(key: string): Promise<Buffer | null> {
    let stream: Readable & { headers?: Record<string, string | string[] | undefined> };
    try {
      stream = await this.client.getObject(this.bucket, key);
    } catch (err) {
      if ((err as { code?: string }).code === 'NoSuchKey' || (err as { code?: string }).code === 'NotFound') return null;
      throw err;
    }
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

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  /** Every key under a prefix (operators' sweeps, and the tests that prove nothing is left behind). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      const { name } = item as { name?: string };
      if (name) keys.push(name);
    }
    return keys;
  }

  /** Readiness: the bucket answers. */
  async check(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} is missing`);
  }
}
