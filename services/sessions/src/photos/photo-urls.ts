import { fileKeyOf, sessionPhotoOwnerOf, type FileSignature } from '@hoptrack/runtime';

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
    const key = path === null ? null : fileKeyOf(path);
    return key !== null && sessionPhotoOwnerOf(key) !== null ? this.signature.url(key, viewerId) : path;
  }

  /** A session's photo list, each signed as forViewer signs one. */
  allForViewer(paths: readonly string[], viewerId: string): string[] {
    return paths.flatMap((path) => this.forViewer(path, viewerId) ?? []);
  }
}
