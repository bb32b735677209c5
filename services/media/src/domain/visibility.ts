import { accessOf, canSee, forbidden, notFound } from '@hoptrack/runtime';
import type { Db } from '../db';

/** Whether a viewer may see a user's albums and photos: the audience module's rule. */
export async function canSeeMediaOf(db: Db, viewerId: string, ownerId: string): Promise<boolean> {
  return canSee(await accessOf(db, viewerId, ownerId));
}

/** The API's answer: blocked or not heard of 404 (as if absent), a private profile 403. */
export async function assertCanViewMediaOf(db: Db, viewerId: string, ownerId: string): Promise<void> {
  const access = await accessOf(db, viewerId, ownerId);
  if (access === 'blocked' || access === 'unknown') throw notFound('Album not found');
  if (access === 'private') throw forbidden('This profile is private');
}
