import { FILES_PREFIX } from '@hoptrack/proto';

/**
 * The shapes of stored files' keys and paths, in one place for the services
 * that write them (media) and the ones that read them back (sessions, auth,
 * the exports): a row keeps a file's path (`/api/media/files/<key>`), the
 * bucket its key.
 */

/** The served path of the file at `key`. */
export const filePath = (key: string): string => `${FILES_PREFIX}${key}`;

/** The key a served path names, or null when it is no stored file's path. */
export const fileKeyOf = (path: string): string | null => (path.startsWith(FILES_PREFIX) ? path.slice(FILES_PREFIX.length) : null);

const SESSION_PHOTO = /^uploads\/([0-9a-f-]{36})\/[0-9a-f-]{36}\.webp$/;

/** Where media stores a session photo for its author (its internal upload): `uploads/<owner>/<id>.webp`. */
export const sessionPhotoKey = (ownerId: string, id: string): string => `uploads/${ownerId}/${id}.webp`;

/** The author a session photo's key names; null for any other key (older, unscoped photos included). */
export const sessionPhotoOwnerOf = (key: string): string | null => SESSION_PHOTO.exec(key)?.[1] ?? null;
