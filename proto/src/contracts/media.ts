import { z } from 'zod';
import { idParams } from '../common';
import { PHOTO_MAX_BYTES, PHOTO_PICKER_MAX, PROFILE_PICTURE_MAX_BYTES } from '../constants';
import {
  addPhotosResponse,
  album,
  albumCreateRequest,
  albumsQuery,
  photo,
  photosQuery,
  storedImageResponse,
  uploadTokenParams,
  uploadUrlResponse,
} from '../media';
import { defineRoutes, internalOnly, signedLink } from './define';

/** The form fields and part headers beside the files of a multipart upload (busboy's default field size). */
const MULTIPART_FIELDS_BYTES = 1024 * 1024;

/** Stored files: profile pictures, photo albums (spec section 7), the files themselves and other services' uploads. */
export const mediaApi = defineRoutes('media', {
  profilePictureUploadUrl: {
    method: 'POST',
    path: '/api/profile-picture/upload',
    summary: 'A signed, short-lived URL to upload a profile picture to',
    responses: { 200: uploadUrlResponse },
  },
  uploadProfilePicture: {
    method: 'PUT',
    path: '/api/media/uploads/:token',
    summary: 'Take the bytes of a profile picture on its upload URL and store a cleaned WebP',
    access: signedLink('the upload token in the path, issued to a signed-in user and verified by the handler, names the uploader'),
    params: uploadTokenParams,
    upload: { kind: 'raw' },
    bodyLimit: PROFILE_PICTURE_MAX_BYTES,
    responses: { 200: storedImageResponse },
  },
  albums: {
    method: 'GET',
    path: '/api/albums',
    summary: "The viewer's albums, or another user's as their privacy allows",
    query: albumsQuery,
    responses: { 200: z.array(album) },
  },
  createAlbum: {
    method: 'POST',
    path: '/api/albums',
    summary: 'Create an album',
    body: albumCreateRequest,
    responses: { 201: album },
  },
  deleteAlbum: {
    method: 'DELETE',
    path: '/api/albums/:id',
    summary: 'Delete one of your albums',
    params: idParams,
  },
  photos: {
    method: 'GET',
    path: '/api/albums/:id/photos',
    summary: "An album's photos, optionally filtered by name and description",
    params: idParams,
    query: photosQuery,
    responses: { 200: z.array(photo) },
  },
  addPhotos: {
    method: 'POST',
    path: '/api/albums/:id/photos',
    summary: 'Add up to ten photos (PHOTO_PICKER_MAX) to one of your albums',
    params: idParams,
    // Files in fields named `photos` and an optional `description`; one file more than allowed, so the handler can name the limit.
    upload: { kind: 'multipart', limits: { fileSize: PHOTO_MAX_BYTES, files: PHOTO_PICKER_MAX + 1, fields: 5, parts: PHOTO_PICKER_MAX + 6 } },
    bodyLimit: PHOTO_PICKER_MAX * PHOTO_MAX_BYTES + MULTIPART_FIELDS_BYTES,
    responses: { 201: addPhotosResponse },
  },
  deletePhoto: {
    method: 'DELETE',
    path: '/api/photos/:id',
    summary: 'Delete a photo from one of your albums',
    params: idParams,
  },
  file: {
    method: 'GET',
    path: '/api/media/files/*',
    summary: 'A stored file: public ones (profile pictures) to anyone, the others by their signed URL',
    // An <img> (or a download link) cannot send a bearer token, so the permission travels in the URL (see FileUrls).
    access: signedLink(
      "album, session-photo and export files are served only with a signature in the query, which the handler verifies before re-checking the viewer's right; profile pictures are public",
    ),
    params: z.object({ '*': z.string().max(300) }),
    query: z.object({ exp: z.string().optional(), v: z.string().optional(), sig: z.string().optional() }),
  },
  internalUpload: {
    method: 'POST',
    path: '/internal/uploads',
    summary: "Store one image on another service's behalf (a session's photo)",
    access: internalOnly('uploads on behalf of other services (sessions), outside /api so only the internal network reaches it'),
    // One image in a field named `file`, after an optional `ownerId` field.
    upload: { kind: 'multipart', limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 2 } },
    bodyLimit: PHOTO_MAX_BYTES + MULTIPART_FIELDS_BYTES,
    responses: { 201: storedImageResponse },
  },
});

/** Where stored files are served (`/api/media/files/`): the file contract's path, its key left off. Signed URLs and avatar URLs start with it. */
export const FILES_PREFIX = mediaApi.file.path.replace(/\*$/, '');
/** Where a profile picture's signed upload link points (`/api/media/uploads/`): the upload contract's path, its token left off. */
export const UPLOADS_PREFIX = mediaApi.uploadProfilePicture.path.replace(/:token$/, '');
