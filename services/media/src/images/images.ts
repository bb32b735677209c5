import { IMAGE_MAX_PIXELS } from '@hoptrack/proto';
import { badRequest } from '@hoptrack/runtime';
import sharp from 'sharp';

/** What we accept, decided from the bytes (sharp reads the magic numbers), never from a name or a content type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);
const NOT_AN_IMAGE = 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)';

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  contentType: 'image/webp';
}

/**
 * Reads the header only (no pixels are decoded) and refuses what is not an
 * accepted raster format — SVG and text included — or what would decode to
 * more than IMAGE_MAX_PIXELS (a decompression bomb is a small file).
 */
const CONTENT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', heif: 'image/avif' };

export async function inspectImage(input: Buffer): Promise<{ width: number; height: number; format: string; contentType: string }> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
  } catch {
    throw badRequest(NOT_AN_IMAGE, 'file');
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) throw badRequest(NOT_AN_IMAGE, 'file');
  if (meta.width * meta.height > IMAGE_MAX_PIXELS) throw badRequest('Image dimensions are too large', 'file');
  return { width: meta.width, height: meta.height, format: meta.format, contentType: CONTENT_TYPES[meta.format] ?? 'application/octet-stream' };
}

/**
 * Decodes, turns upright from EXIF orientation, resizes, and writes WebP.
 * sharp keeps no metadata unless asked, so EXIF (GPS included) is dropped.
 * The header was checked first; a decode failure here means corrupt pixels.
 */
async function reencode(input: Buffer, resize: sharp.ResizeOptions & { width: number; height: number }): Promise<ProcessedImage> {
  await inspectImage(input);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(resize)
      .webp({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: 'image/webp' };
  } catch {
    throw badRequest(NOT_AN_IMAGE, 'file');
  }
}

/** A profile picture: a 512 px square. */
export const toProfilePicture = (input: Buffer) => reencode(input, { width: 512, height: 512, fit: 'cover' });

/** One display copy within 1600 px (images other services attach). */
export const toDisplayImage = (input: Buffer) => reencode(input, { width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true });

export interface PhotoVersions {
  thumbnail: Buffer;
  display: Buffer;
  width: number;
  height: number;
}

/**
 * An album photo's two served versions: a 320 px square thumbnail and a
 * display copy within 1600 px, both upright, WebP, and without metadata.
 * The original (which may carry GPS) is kept but never served.
 *
 * The photo is decoded once: straight to the display size (a JPEG shrinks
 * while it decodes), then both versions are made from those pixels side by
 * side, the display copy's WebP encode beside the thumbnail's resize and
 * encode. (Two pipelines on the original decode it twice: about a tenth more
 * CPU per photo for a 12 MP JPEG, and two threads busy where one will do.)
 */
export async function renderPhotoVersions(input: Buffer): Promise<PhotoVersions> {
  const { data, info } = await sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
    .rotate()
    .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [thumbnail, display] = await Promise.all([
    sharp(data, pixels).resize(320, 320, { fit: 'cover' }).webp({ quality: 80 }).toBuffer(),
    sharp(data, pixels).webp({ quality: 85 }).toBuffer(),
  ]);
  return { thumbnail, display, width: info.width, height: info.height };
}
