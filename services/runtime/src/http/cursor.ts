import { badRequest } from './errors';

/** A position in a list ordered by time then id, newest first: `<epoch ms>_<uuid>` on the wire. */
export interface TimeCursor {
  at: number;
  id: string;
}

export function encodeTimeCursor(cursor: { at: Date | number; id: string }): string {
  return `${typeof cursor.at === 'number' ? cursor.at : cursor.at.getTime()}_${cursor.id}`;
}

/** Null for no cursor (the first page); 400 naming `field` for a malformed one. */
export function decodeTimeCursor(text: string | undefined, field = 'cursor'): TimeCursor | null {
  if (!text) return null;
  const match = /^(\d{1,16})_([0-9a-f-]{36})$/.exec(text);
  if (!match) throw badRequest('Malformed cursor', field);
  return { at: Number(match[1]), id: match[2] as string };
}
