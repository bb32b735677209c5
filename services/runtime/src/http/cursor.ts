import { badRequest } from './errors';

/** A position in a list ordered by time then id, newest first: `<epoch ms>_<uuid>` on the wire. */
export interface TimeCursor {
  at: number;
  id: string;
}

export function encodeTimeCursor(cursor: { at: Date | number; id: string }): string {
  return `${typeof cursor.at === 'number' ? cursor.at : cursor.at.getTime()}_${cursor.id}`;
}

const CURSOR = /^(\d{1,16})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** The largest time a JavaScript Date (and so the database query) can hold. */
const MAX_TIME_MS = 8.64e15;

/**
 * Null for no cursor (the first page); 400 naming `field` for a malformed one —
 * including a well-shaped one that is no real time or id, which would
 * otherwise reach the database and fail there.
 */
export function decodeTimeCursor(text: string | undefined, field = 'cursor'): TimeCursor | null {
  if (!text) return null;
  const match = CURSOR.exec(text);
  const at = Number(match?.[1]);
  if (!match || at > MAX_TIME_MS) throw badRequest('Malformed cursor', field);
  return { at, id: match[2] as string };
}
