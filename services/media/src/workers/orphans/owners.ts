import { peopleByIds, type SqlClient } from '@hoptrack/runtime';
import { profilePictureKey } from '../../domain/export';
import { exportAssembliesRepository } from '../../repositories/export-assemblies.repository';
import { photosRepository } from '../../repositories/photos.repository';
import type { SessionPhotoNames } from './session-photos';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The row that names an object of a kind: its photo's, its export's, its owner's profile picture, or a session's (the sessions service's). */
export type Namer = 'photo' | 'export' | 'profile picture' | 'session';

export interface KeyKind {
  /** The folder the kind's objects are under (listed on its own). */
  prefix: string;
  /** The whole key: `<folder>/<owner id>/<id>[.ext]`. */
  pattern: RegExp;
  namer: Namer;
}

const kind = (prefix: string, rest: string, namer: Namer): KeyKind => ({ prefix, pattern: new RegExp(`^${prefix}(${UUID})/(${UUID})${rest}$`, 'i'), namer });

/**
 * The objects the orphan sweep judges, each with the row that names it (see
 * photoKeys, avatarKey, exportKey). A photo's three objects are named by its
 * row from the moment it is committed, whatever its status, so a thumbnail
 * written just before its photo is marked ready is never an orphan. Session
 * photos (`uploads/`) are named by the sessions service's rows, which media
 * cannot read: the sweep asks sessions (SessionPhotoNames), and they come last,
 * so sessions being unreachable fails the pass only after the rest was swept.
 * A key of no kind here is never deleted (older, unscoped `uploads/<id>.webp`).
 */
export const SWEPT_KINDS: readonly KeyKind[] = [
  kind('originals/', '', 'photo'),
  kind('thumbs/', '\\.webp', 'photo'),
  kind('display/', '\\.webp', 'photo'),
  kind('avatars/', '\\.webp', 'profile picture'),
  kind('exports/', '\\.zip', 'export'),
  kind('uploads/', '\\.webp', 'session'),
];

/** A listed object the sweep may judge: old enough, and a key of a kind it knows. */
export interface Candidate {
  key: string;
  /** Its folder (`thumbs`, `avatars`…): the label it is counted under. */
  folder: string;
  namer: Namer;
  /** Lower case, as the rows keep them. */
  ownerId: string;
  id: string;
}

/** The object as a candidate of `of`, or null when its key is not of that kind (left alone). */
export function candidateOf(of: KeyKind, key: string): Candidate | null {
  const match = of.pattern.exec(key);
  if (!match?.[1] || !match[2]) return null;
  return { key, folder: of.prefix.replace(/\/$/, ''), namer: of.namer, ownerId: match[1].toLowerCase(), id: match[2].toLowerCase() };
}

/** `owner/id` pairs, the way the rows are compared with the keys. */
const pair = (ownerId: string, id: string) => `${ownerId.toLowerCase()}/${id.toLowerCase()}`;

/**
 * The keys among `candidates` that a row names, in one query per kind of row
 * for the whole batch: the sweep's cost follows the objects listed, never one
 * query per object. Profile pictures are named by the person's picture in
 * media's read model of auth's accounts (the people table).
 */
export async function namedAmong(db: SqlClient, candidates: readonly Candidate[], sessions?: SessionPhotoNames): Promise<Set<string>> {
  const of = (namer: Namer) => candidates.filter((c) => c.namer === namer);
  const ids = (list: Candidate[], pick: (c: Candidate) => string) => [...new Set(list.map(pick))];
  const [photos, exports, pictures, sessionPhotos] = [of('photo'), of('export'), of('profile picture'), of('session')];
  if (sessionPhotos.length > 0 && !sessions) throw new Error('session photos are judged only with the sessions service to ask');
  const [photoRows, exportRows, people, namedBySessions] = await Promise.all([
    photos.length > 0 ? photosRepository.ownersAmong(db, ids(photos, (c) => c.id)) : [],
    exports.length > 0 ? exportAssembliesRepository.ownersAmong(db, ids(exports, (c) => c.id)) : [],
    pictures.length > 0 ? peopleByIds(db, ids(pictures, (c) => c.ownerId)) : new Map<string, { profilePicture: string | null }>(),
    sessionPhotos.length > 0 && sessions ? sessions.named(sessionPhotos.map((c) => c.key)) : [],
  ]);
  const sessionKeys = new Set(namedBySessions);
  const photoPairs = new Set(photoRows.map((row) => pair(row.user_id, row.id)));
  const exportPairs = new Set(exportRows.map((row) => pair(row.user_id, row.id)));
  const pictureKeys = new Set(
    [...people.entries()].flatMap(([userId, person]) => profilePictureKey(userId, person.profilePicture)?.toLowerCase() ?? []),
  );
  const named = new Set<string>();
  for (const c of candidates) {
    const found =
      c.namer === 'photo'
        ? photoPairs.has(pair(c.ownerId, c.id))
        : c.namer === 'export'
          ? exportPairs.has(pair(c.ownerId, c.id))
          : c.namer === 'session'
            ? sessionKeys.has(c.key)
            : pictureKeys.has(c.key.toLowerCase());
    if (found) named.add(c.key);
  }
  return named;
}
