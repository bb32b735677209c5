import { HttpError } from '@hoptrack/runtime';

/** What a person reads when the store is down (the web shows it and offers to try again). */
export const STORAGE_UNAVAILABLE_MESSAGE = 'Photo storage is unavailable right now, please try again shortly';

/**
 * The object store could not be reached or would not serve, right now: the
 * request was fine and may be sent again. An HttpError of 503, so every
 * route that reads or writes files answers it through the runtime's error
 * handler (the message, Retry-After) without a catch of its own, and an
 * Idempotency-Key answered 503 runs afresh when retried; a thumbnail job
 * waits and runs again. Raised by ObjectStore only, so everything above it
 * tells an outage from a bug by this one type.
 */
export class StorageUnavailable extends HttpError {
  constructor(
    /** The store's call that failed (put, get, list…), for the log. */
    readonly operation: string,
    options: { cause: unknown },
  ) {
    super(503, STORAGE_UNAVAILABLE_MESSAGE);
    this.cause = options.cause;
    this.name = 'StorageUnavailable';
  }
}

/** Sockets that failed or went quiet (ETIMEDOUT: ObjectStore's own request timeout). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
/** S3's answers for "not now": its 5xx error codes, throttling, and a request it gave up waiting for. */
const S3_CODES = new Set(['InternalError', 'ServiceUnavailable', 'SlowDown', 'RequestTimeout', 'XMinioServerNotInitialized']);
/** The minio client retries a 5xx once by itself; what it throws then is a plain Error saying so. */
const RETRIES_EXHAUSTED = /Retryable HTTP status: 5\d\d|Request failed after \d+ retries/;

/** Whether `error` (or anything in its cause chain) is the store being down or failing, rather than a bad request or a bug. */
export function isStorageOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (current instanceof StorageUnavailable) return true;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || S3_CODES.has(code))) return true;
    if (typeof message === 'string' && RETRIES_EXHAUSTED.test(message)) return true;
    current = cause;
  }
  return false;
}
