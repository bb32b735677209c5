import { infiniteQueryOptions, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { AlbumCreateRequest } from '@hoptrack/proto';
import { api } from '../api';

/**
 * Albums and photos (spec section 7). Keys are the contracts' own: the
 * viewer's albums, and an album's photos by album and search text (which
 * travels as `?q=`).
 */
export const ALBUMS_KEY = api.media.albums.key();
export const albumPhotosKey = (albumId: string, query: string) => api.media.photos.key({ params: { id: albumId }, query: { q: query } });

/** What every album or photo write changes: the list's counts and covers, and every cached photo list. */
export const ALBUM_WRITES_AFFECT: readonly QueryKey[] = [ALBUMS_KEY, api.media.photos.key()];

/** The viewer's albums. */
export const albumsQuery = () => queryOptions({ queryKey: ALBUMS_KEY, queryFn: () => api.media.albums() });

/** The multipart body of POST /api/albums/{id}/photos: each file under `photos`, the description if any. */
export function photosForm(files: readonly File[], description: string): FormData {
  const form = new FormData();
  for (const file of files) form.append('photos', file, file.name);
  const trimmed = description.trim();
  if (trimmed) form.append('description', trimmed);
  return form;
}

export const photosApi = {
  listPhotos: (albumId: string, query: string) => api.media.photos({ params: { id: albumId }, query: { q: query || undefined } }),
  createAlbum: (body: AlbumCreateRequest) => api.media.createAlbum({ body }),
  deleteAlbum: (albumId: string) => api.media.deleteAlbum({ params: { id: albumId } }),
  addPhotos: (albumId: string, files: readonly File[], description: string) =>
    api.media.addPhotos({ params: { id: albumId }, form: photosForm(files, description) }),
  deletePhoto: (photoId: string) => api.media.deletePhoto({ params: { id: photoId } }),
};

/** '0 photos', '1 photo', '12 photos'. */
export function photoCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'photo' : 'photos'}`;
}

/**
 * The built-in album of the viewer's session photos (issue 40): opened as
 * /photos?album=sessions (album ids are UUIDs, so the name cannot clash).
 * Read from the sessions (GET /api/users/{id}/session-photos), a page at a
 * time; read afresh each time /photos opens, since a session logged or
 * edited meanwhile changes it and no photo write of this screen does.
 */
export const SESSION_PHOTOS_ALBUM = 'sessions';
export const SESSION_PHOTOS_PAGE = 24;
export const sessionPhotosKey = (userId: string) => api.sessions.photosOf.key({ params: { id: userId } });
export const sessionPhotosQuery = (userId: string) =>
  infiniteQueryOptions({
    queryKey: sessionPhotosKey(userId),
    queryFn: ({ pageParam }) => api.sessions.photosOf({ params: { id: userId }, query: { limit: SESSION_PHOTOS_PAGE, offset: pageParam } }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((count, page) => count + page.photos.length, 0);
      return last.photos.length > 0 && loaded < last.total ? loaded : undefined;
    },
    staleTime: 0,
  });
