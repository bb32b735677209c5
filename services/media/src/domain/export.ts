import type { ExportPart } from '@hoptrack/proto';
import { personById } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { albumsRepository } from '../repositories/albums.repository';

/** File extensions of the originals' types (an original's key has none). */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
};

/** The extension a photo's original gets in the zip: by its type, else by the name it was uploaded as. */
export function originalExtension(mimeType: string, originalName: string): string {
  const byType = EXTENSIONS[mimeType.toLowerCase()];
  if (byType) return byType;
  const byName = /\.([A-Za-z0-9]{1,8})$/.exec(originalName)?.[1];
  return byName ? byName.toLowerCase() : 'bin';
}

/**
 * An album's name as a folder of the zip: no separators, control or
 * reserved characters (Windows' too), no leading or trailing dots or spaces,
 * at most 80 characters; 'album' when nothing is left.
 */
export function albumFolder(name: string): string {
  const cleaned = [...name.normalize('NFC').replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')]
    .slice(0, 80)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return cleaned || 'album';
}

/** The profile picture's key, from the URL auth recorded (served as FILES_PREFIX + key), when it is one of the person's own. */
export function profilePictureKey(userId: string, url: string | null): string | null {
  if (!url) return null;
  const match = /(?:^|\/)(avatars\/([0-9a-f-]{36})\/[0-9a-f-]{36}\.(webp|jpg|png))(?:$|\?)/.exec(url);
  return match?.[1] && match[2] === userId.toLowerCase() ? match[1] : null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Media's part of a data export (issue 24): the person's albums with their
 * photos' details, and their profile picture; `files` names the original of
 * every album photo (as uploaded, under `photos/<album>/<photo id>.<ext>`)
 * and the profile picture (`profile-picture.<ext>`), for the assembler to
 * copy into the zip.
 */
export async function mediaExportPart(prisma: PrismaClient, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const albums = await albumsRepository.listOwnedWithPhotos(prisma, userId);
  const files: ExportPart['files'] = [];
  const albumData = albums.map((album) => {
    const folder = albumFolder(album.name);
    return {
      id: album.id,
      name: album.name,
      description: album.description,
      createdAt: album.createdAt.toISOString(),
      updatedAt: album.updatedAt.toISOString(),
      photos: album.photos.map((photo) => {
        const file = `photos/${folder}/${photo.id}.${originalExtension(photo.mimeType, photo.originalName)}`;
        files.push({ path: file, key: photo.filename });
        return {
          id: photo.id,
          originalName: photo.originalName,
          description: photo.description,
          mimeType: photo.mimeType,
          fileSize: photo.fileSize,
          width: photo.width,
          height: photo.height,
          status: photo.status,
          sessionId: photo.sessionId,
          createdAt: photo.createdAt.toISOString(),
          updatedAt: iso(photo.updatedAt),
          file,
        };
      }),
    };
  });
  const person = await personById(prisma, userId);
  const pictureKey = profilePictureKey(userId, person?.profilePicture ?? null);
  let profilePicture: { file: string } | null = null;
  if (pictureKey) {
    const file = `profile-picture.${pictureKey.slice(pictureKey.lastIndexOf('.') + 1)}`;
    files.push({ path: file, key: pictureKey });
    profilePicture = { file };
  }
  return { data: { albums: albumData, profilePicture }, files };
}
