import { filePath, sessionPhotoOwnerOf } from '@hoptrack/runtime';
import type { Db } from '../db';
import { sessionsRepository } from '../repositories/sessions.repository';

/**
 * Which of these stored photo keys a session names (media's orphan sweep
 * asks, issue 38 item 6): a photo stored for a session whose create failed
 * afterwards, or taken out by an edit, or left by a deleted session, is named
 * by no row and media may delete it. A key not stored as someone's
 * (`uploads/<owner>/<id>.webp`) is never answered as named: the sweep does not
 * judge such keys. A photo is named from the moment its session commits, so
 * the sweep's grace only has to cover the upload itself.
 */
export async function namedPhotos(db: Db, keys: readonly string[]): Promise<string[]> {
  const owners = new Set<string>();
  const byPath = new Map<string, string>();
  for (const key of keys) {
    const owner = sessionPhotoOwnerOf(key);
    if (owner === null) continue;
    owners.add(owner);
    byPath.set(filePath(key), key);
  }
  if (byPath.size === 0) return [];
  const named = await sessionsRepository.namedPaths(db, [...owners], [...byPath.keys()]);
  return named.flatMap((path) => byPath.get(path) ?? []);
}
