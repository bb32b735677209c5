/**
 * What a picked file really is, before anything offers to upload it (issue 40,
 * item 13): its name and the browser's type guess come from the extension, so
 * a text file renamed `.png` claims to be a PNG. The first bytes must be those
 * of an image the servers take (media decodes JPEG, PNG, WebP, GIF and AVIF),
 * and the browser must decode it; otherwise the field says so and shows no
 * preview.
 */

/** The field's words for a file that is no image the servers take. */
export const NOT_A_SUPPORTED_IMAGE = 'Not a supported image (JPEG, PNG, WebP, GIF or AVIF)';

const ascii = (bytes: Uint8Array, from: number, text: string) => [...text].every((char, i) => bytes[from + i] === char.charCodeAt(0));

/** Whether the first bytes are those of a JPEG, PNG, GIF, WebP or AVIF file. */
export function hasImageSignature(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true; // JPEG
  if (bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\x1a\n')) return true;
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return true;
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return true;
  // AVIF: an ISO-BMFF 'ftyp' box whose brand is avif or avis.
  return ascii(bytes, 4, 'ftyp') && (ascii(bytes, 8, 'avif') || ascii(bytes, 8, 'avis'));
}

/** Whether the browser decodes the file as an image (a truncated or corrupt one does not). */
async function decodes(file: File): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true; // no decoder to ask: the signature has to do
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}

/** Whether `file` is an image the servers take, by its bytes: a signature they know, and the browser decodes it. */
export async function isSupportedImage(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return hasImageSignature(head) && (await decodes(file));
}
