import type { CurrentUser, StoredImageResponse } from '@hoptrack/proto';
import { PROFILE_PICTURE_MAX_BYTES } from '@hoptrack/proto/constants';
import { api, apiErrorOf } from '../api';
import type { ToastInput } from './toast';

/**
 * The profile picture (spec sections 5, 7, 8): the client's checks before any
 * call, and the three-step upload of proto/src/media.ts.
 */

/** Why a chosen file is refused before anything is sent, as the toast shows it; null when it may go. */
export function refusePicture(file: File): ToastInput | null {
  if (!file.type.startsWith('image/')) {
    return { title: 'Invalid file type', description: 'Please select an image file.' };
  }
  if (file.size >= PROFILE_PICTURE_MAX_BYTES) {
    return { title: 'File too large', description: 'Please select an image smaller than 5MB.' };
  }
  return null;
}

/**
 * 1. POST /api/profile-picture/upload → a signed, same-origin upload URL;
 * 2. PUT the bytes there with their content type;
 * 3. PUT /api/me/profile-picture with the upload URL (signed for this person,
 *    as the spec's client sends it) → the updated current user, whose picture
 *    is where the stored image is served. Auth takes no other new picture
 *    (issue 39: it took any path under /avatars/).
 */
export async function uploadProfilePicture(file: File): Promise<CurrentUser> {
  const { uploadURL } = await api.media.profilePictureUploadUrl().catch((cause: unknown) => {
    throw new Error('Failed to get upload URL', { cause });
  });
  await putFile(uploadURL, file).catch((cause: unknown) => {
    throw new Error('Failed to upload file', { cause });
  });
  return api.auth.setProfilePicture({ body: { profilePictureUrl: new URL(uploadURL, window.location.origin).pathname } });
}

/**
 * The bytes to the URL the server handed out (media.uploadProfilePicture):
 * the signed URL is the credential, so no Bearer header rides along, and the
 * client is not asked to build it.
 */
async function putFile(uploadURL: string, file: File): Promise<StoredImageResponse> {
  const res = await fetch(uploadURL, { method: 'PUT', body: file, headers: { 'content-type': file.type } });
  if (!res.ok) throw await apiErrorOf(res);
  // The contract's 200 answer (storedImageResponse), trusted as the client trusts every answer.
  return (await res.json()) as StoredImageResponse;
}
