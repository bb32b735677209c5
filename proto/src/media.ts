import { z } from 'zod';

/**
 * Media contracts (spec sections 5 and 7). The profile-picture flow:
 * 1. POST /api/profile-picture/upload → { uploadURL } (a same-origin URL, signed, valid a few minutes)
 * 2. PUT <uploadURL> with the image bytes and their content type → { url }
 * 3. PUT /api/me/profile-picture { profilePictureUrl: url } (auth service)
 */
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_PICKER_MAX = 10;
/** Images larger than this many pixels are refused before decoding (decompression bombs). */
export const IMAGE_MAX_PIXELS = 40_000_000;

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
