import { z } from 'zod';
import { ALBUM_NAME_MAX, PHOTO_STATUSES } from './constants';

/**
 * Media contracts (spec sections 5 and 7). The profile-picture flow:
 * 1. POST /api/profile-picture/upload → { uploadURL } (a same-origin URL, signed, valid a few minutes)
 * 2. PUT <uploadURL> with the image bytes and their content type → { url }
 * 3. PUT /api/me/profile-picture { profilePictureUrl: uploadURL } (auth service), as the spec's client
 *    sends it: a link is signed for one person and names the picture of its one upload. A stored
 *    picture's `url` is taken only as the one the person already has (issue 39)
 */
export const uploadUrlResponse = z.object({
  uploadURL: z.string(),
  /** When the URL stops working (ISO time). */
  expiresAt: z.string(),
});
export type UploadUrlResponse = z.infer<typeof uploadUrlResponse>;

export const storedImageResponse = z.object({
  /** Where the stored image is served, on our own origin. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  contentType: z.string(),
});
export type StoredImageResponse = z.infer<typeof storedImageResponse>;

export const uploadTokenParams = z.object({
  token: z.string().min(1).max(512).regex(/^[A-Za-z0-9._-]+$/, { error: 'Malformed upload token' }),
});

// ---- Albums and photos ----

export const albumCreateRequest = z.object({
  name: z
    .string({ error: 'Album name is required' })
    .trim()
    .min(1, { error: 'Album name is required' })
    .max(ALBUM_NAME_MAX, { error: `Album name must be at most ${ALBUM_NAME_MAX} characters` }),
  description: z.string().trim().max(500, { error: 'Description must be at most 500 characters' }).optional(),
});
export type AlbumCreateRequest = z.infer<typeof albumCreateRequest>;

export const album = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  /** The first processed photo's thumbnail, signed for the viewer; null until there is one. */
  coverPhoto: z.string().nullable(),
  photoCount: z.number().int(),
  createdAt: z.string(),
});
export type Album = z.infer<typeof album>;

/**
 * A photo as a viewer may see it. `url` and `thumbnailUrl` are signed for this
 * viewer and expire (a private album's images cannot be passed around for long);
 * both are null until the thumbnail worker has processed the photo.
 */
export const photo = z.object({
  id: z.uuid(),
  albumId: z.uuid(),
  url: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  originalName: z.string(),
  description: z.string().nullable(),
  status: z.enum(PHOTO_STATUSES),
  failureReason: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  fileSize: z.number().int(),
  createdAt: z.string(),
});
export type Photo = z.infer<typeof photo>;

/** GET /api/albums: your own albums, or another user's with ?userId= (privacy and blocks apply). */
export const albumsQuery = z.object({ userId: z.uuid().optional() });
/** GET /api/albums/{id}/photos?q=: filters by original file name and description. */
export const photosQuery = z.object({ q: z.string().trim().max(100, { error: 'Search query must be at most 100 characters' }).optional() });

/**
 * POST /api/albums/{id}/photos is multipart/form-data: up to PHOTO_PICKER_MAX files
 * in fields named `photos` (each ≤ PHOTO_MAX_BYTES, JPEG/PNG/WebP/GIF/AVIF by content),
 * and an optional `description` field applied to each. Answers 201 with the created
 * photos in status `processing`; thumbnails follow asynchronously.
 */
export const addPhotosResponse = z.array(photo);
