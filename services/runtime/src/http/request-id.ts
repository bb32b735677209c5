import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const VALID_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The gateway's request id when it sent a sane one, else a fresh one: ids cross gateway → service → event. */
export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && VALID_ID.test(value) ? value : randomUUID();
}
