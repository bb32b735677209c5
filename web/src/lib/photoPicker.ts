import { PHOTO_MAX_BYTES, PHOTO_PICKER_MAX } from '@hoptrack/proto/constants';
import { isSupportedImage, NOT_A_SUPPORTED_IMAGE } from './imageCheck';

/** One image waiting in the add-photos dialog; `key` tells two picks of the same file apart. */
export interface PickedImage {
  key: number;
  file: File;
}

export interface PickResult {
  /** At most `PHOTO_PICKER_MAX`, oldest first. */
  images: PickedImage[];
  /** What the dialog says about the pick: images dropped for the limit, files refused. */
  notes: string[];
}

let nextKey = 1;

const MAX_MEGABYTES = PHOTO_MAX_BYTES / (1024 * 1024);

/**
 * Adds a pick to the images already chosen (spec section 5: the picker keeps
 * at most the last 10 images). Files that are not images, or are larger than
 * the server takes, are left out; beyond the limit the oldest images go.
 */
export function pickImages(current: readonly PickedImage[], chosen: readonly File[], max = PHOTO_PICKER_MAX): PickResult {
  const notes: string[] = [];
  const accepted: PickedImage[] = [];
  for (const file of chosen) {
    if (!file.type.startsWith('image/')) notes.push(`${file.name} is not an image.`);
    else if (file.size > PHOTO_MAX_BYTES) notes.push(`${file.name} is larger than ${MAX_MEGABYTES}MB.`);
    else accepted.push({ key: nextKey++, file });
  }
  const all = [...current, ...accepted];
  const dropped = Math.max(0, all.length - max);
  if (dropped > 0) {
    notes.unshift(
      `Only the last ${max} images are kept: ${dropped} earlier ${dropped === 1 ? 'image was' : 'images were'} dropped.`,
    );
  }
  return { images: all.slice(dropped), notes };
}

/**
 * A pick sorted by what its files really are (their bytes, decoded): the
 * images to keep, and what the field says about the rest (undefined when
 * none was refused). Files that do not even claim to be images are left to
 * the caller's own type check.
 */
export async function checkPick(files: readonly File[]): Promise<{ files: File[]; error: string | undefined }> {
  const verdicts = await Promise.all(files.map(async (file) => !file.type.startsWith('image/') || (await isSupportedImage(file))));
  const refused = files.filter((_, i) => !verdicts[i]);
  return { files: files.filter((_, i) => verdicts[i]), error: refusedText(refused, files.length) };
}

/** The field's words for files whose bytes are no image: the reason alone for a pick of one, with the names for more. */
function refusedText(refused: readonly File[], picked: number): string | undefined {
  if (refused.length === 0) return undefined;
  return picked === 1 ? NOT_A_SUPPORTED_IMAGE : `${NOT_A_SUPPORTED_IMAGE}: ${refused.map((file) => file.name).join(', ')}`;
}
