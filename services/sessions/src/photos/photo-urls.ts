import { FILES_PREFIX, type FileSignature } from '@hoptrack/runtime';

/** A session photo stored as the author's (see the media service's internal upload): `uploads/<owner>/<uuid>.webp`. */
const OWNED_PHOTO = /^uploads\/([0-9a-f-]{36})\/[0-9a-f-]{36}\.webp$/;

/** The owner a stored photo's key names, when it is one stored as someone's (older photos are not); null otherwise. */
export const photoOwnerOf = (key: string): string | null => OWNED_PHOTO.exec(key)?.[1] ?? null;

/** A session row's path of a stored photo (`/api/media/files/<key>`), and back. */
export const pathOfKey = (key: string): string => `${FILES_PREFIX}${key}`;
export const keyOfPath = (path: string): string | null => (path.startsWith(FILES_PREFIX) ? path.slice(FILES_PREFIX.length) : null);

/**
 * What a viewer's browser may load for a stored session photo: the author's
 * photos are served by media only through a URL signed for that viewer
 * (media re-checks, on every fetch, that the viewer may still see the
 * author's photos: a block or a private switch revokes URLs handed out
 * before). Older, unscoped paths are returned as stored.
 */
export class PhotoUrls {
  constructor(private readonly signature: FileSignature) {}

  forViewer(path: string | null, viewerId: string): string | null {
    const key = path === null ? null : keyOfPath(path);
    return key !== null && photoOwnerOf(key) !== null ? this.signature.url(key, viewerId) : path;
  }

  /** A session's photo list, each signed as forViewer signs one. */
  allForViewer(paths: readonly string[], viewerId: string): string[] {
    return paths.flatMap((path) => this.forViewer(path, viewerId) ?? []);
  }
}
