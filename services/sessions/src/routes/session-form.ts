import type { MultipartFile } from '@fastify/multipart';
import { SESSION_PHOTOS_MAX } from '@hoptrack/proto';
import { badRequest, parseInput } from '@hoptrack/runtime';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

export interface IncomingPhoto {
  data: Buffer;
  filename: string;
  contentType: string;
}

/**
 * Reads the multipart session form: text fields validated with `schema`
 * (every value arrives as text), and up to SESSION_PHOTOS_MAX `sessionPhoto`
 * files in the order sent. Each photo is read whole (at most PHOTO_MAX_BYTES,
 * else 413) but stored only after the fields passed, so bad input never leaves
 * a file behind. The multipart limits are the contracts' (sessionsApi.create
 * and .update, proto/src/contracts/sessions.ts): one file part more than a
 * session holds, so the extra part reaches this loop and is refused with a 400
 * that names `sessionPhoto`.
 */
export async function readSessionForm<S extends z.ZodType>(request: Pick<FastifyRequest, 'isMultipart' | 'parts'>, schema: S): Promise<{ form: z.output<S>; photos: IncomingPhoto[] }> {
  if (!request.isMultipart()) throw badRequest('Send the session as multipart/form-data', 'body');
  const fields: Record<string, string> = {};
  const photos: IncomingPhoto[] = [];
  let fileParts = 0;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    const file = part as MultipartFile;
    if (file.fieldname !== 'sessionPhoto') throw badRequest('The photo must be sent in a field named "sessionPhoto"', 'sessionPhoto');
    // Refused before the part is read: an over-long form costs no more memory than a full one.
    if (++fileParts > SESSION_PHOTOS_MAX) throw badRequest(`A session can have at most ${SESSION_PHOTOS_MAX} photos`, 'sessionPhoto');
    const data = await file.toBuffer();
    // A browser sends an empty file part when no photo was chosen.
    if (data.length > 0) photos.push({ data, filename: file.filename || 'photo', contentType: file.mimetype });
  }
  // The same rule as every JSON body: control characters refused, then the form's schema.
  const parsed = parseInput(schema, fields, 'body');
  if ('error' in parsed) throw parsed.error;
  if (photos.some((photo) => !photo.contentType.startsWith('image/'))) throw badRequest('The photo must be an image', 'sessionPhoto');
  return { form: parsed.value, photos };
}
