import type { QueryKey } from '@tanstack/react-query';
import type { Album, AlbumCreateRequest, Photo } from '@hoptrack/proto';
import { apiRequest } from './api';

/**
 * Albums and photos (spec section 7). The albums list is the URL key the
 * default query fn reads; an album's photos hang below it
 * (`['/api/albums', id, 'photos', q]`) with their own query fn, because the
 * search text travels as `?q=`. Invalidating `ALBUMS_KEY` as a prefix refreshes
 * the list (counts, covers) and every cached photo list.
 */
export const ALBUMS_KEY = ['/api/albums'] as const;

export const albumPhotosRoot = (albumId: string) => [...ALBUMS_KEY, albumId, 'photos'] as const;
export const albumPhotosKey = (albumId: string, query: string) => [...albumPhotosRoot(albumId), query] as const;

/** What every album or photo write changes: the list's counts and covers, and the photo lists below it. */
export const ALBUM_WRITES_AFFECT: readonly QueryKey[] = [ALBUMS_KEY];

/** The multipart body of POST /api/albums/{id}/photos: each file under `photos`, the description if any. */
export function photosForm(files: readonly File[], description: string): FormData {
  const form = new FormData();
  for (const file of files) form.append('photos', file, file.name);
  const trimmed = description.trim();
  if (trimmed) form.append('description', trimmed);
  return form;
}

export const photosApi = {
  listPhotos: (albumId: string, query: string) =>
    apiRequest<Photo[]>('GET', `/api/albums/${albumId}/photos${query ? `?q=${encodeURIComponent(query)}` : ''}`),
  createAlbum: (body: AlbumCreateRequest) => apiRequest<Album>('POST', '/api/albums', body),
  deleteAlbum: (albumId: string) => apiRequest<null>('DELETE', `/api/albums/${albumId}`),
  addPhotos: (albumId: string, files: readonly File[], description: string) =>
    apiRequest<Photo[]>('POST', `/api/albums/${albumId}/photos`, photosForm(files, description)),
  deletePhoto: (photoId: string) => apiRequest<null>('DELETE', `/api/photos/${photoId}`),
};

/** '0 photos', '1 photo', '12 photos'. */
export function photoCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'photo' : 'photos'}`;
}
