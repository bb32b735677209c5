import { avatarUrl, badRequest, UPLOADS_PREFIX, type UploadTokens } from '@hoptrack/runtime';

/**
 * The URL to keep for a profile picture (spec section 7). The spec's client
 * sends the upload URL it was given; the web app sends the URL the upload
 * answered. An upload URL is accepted only when this deployment signed it for
 * this person and it has not expired, and it is kept as the stored picture's
 * URL (the media service stores a link's one upload under the link's id):
 * never the link itself, which stops working, and never someone else's.
 */
export function pictureToKeep(uploads: UploadTokens, user: { id: string; profilePicture: string | null }, given: string): string {
  if (!given.startsWith(UPLOADS_PREFIX)) {
    // A stored picture's URL is taken only as the one the person has (a form sent again): any
    // other, someone else's or one made up under their own id, names no upload of theirs (issue 39).
    if (given === user.profilePicture) return given;
    throw badRequest('Must be a picture uploaded through /api/profile-picture/upload', 'profilePictureUrl');
  }
  const link = uploads.claimsOf(given.slice(UPLOADS_PREFIX.length));
  if (!link || link.u !== user.id) throw badRequest('Upload link expired or invalid', 'profilePictureUrl');
  return avatarUrl(link);
}
