import { z } from 'zod';
import { pageLimit, pageOffset, uuid } from './common';

/**
 * A person's session photos (issue 40: the Photos screen showed none of
 * them): GET /api/users/{id}/session-photos, under the same rule as their
 * sessions list (a private profile to friends only, a block either way or an
 * unknown person 404). Newest session first, each session's photos in the
 * order they were picked; every URL signed for the viewer.
 */
export const SESSION_PHOTOS_PAGE_DEFAULT = 24;
export const SESSION_PHOTOS_PAGE_MAX = 60;

export const sessionPhotosQuery = z.object({ limit: pageLimit(SESSION_PHOTOS_PAGE_DEFAULT, SESSION_PHOTOS_PAGE_MAX), offset: pageOffset });
export type SessionPhotosQuery = z.infer<typeof sessionPhotosQuery>;

export const sessionPhoto = z.object({
  sessionId: uuid,
  sessionTitle: z.string(),
  url: z.string(),
  /** When the session was logged. */
  createdAt: z.string(),
});
export type SessionPhoto = z.infer<typeof sessionPhoto>;

/** A page of them, and how many there are in all (the album card's count). */
export const sessionPhotoPage = z.object({ total: z.number().int(), photos: z.array(sessionPhoto) });
export type SessionPhotoPage = z.infer<typeof sessionPhotoPage>;
