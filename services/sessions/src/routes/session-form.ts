import type { MultipartFile } from '@fastify/multipart';
import { PHOTO_MAX_BYTES } from '@hoptrack/proto';
import { badRequest, describeIssue } from '@hoptrack/runtime';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

export const SESSION_FORM_LIMITS = { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 20, parts: 21 };

export interface IncomingPhoto {
  data: Buffer;
  filename: string;
  contentType: string;
}

/**
 * Reads the multipart session form: text fields validated with `schema`
 * (every value arrives as text), and the optional `sessionPhoto` file. The
 * photo is read whole (at most PHOTO_MAX_BYTES, else 413) but stored only
 * after the fields passed, so bad input never leaves a file behind.
 */
export async function readSessionForm<S extends z.ZodType>(request: FastifyRequest, schema: S): Promise<{ form: z.output<S>; photo: IncomingPhoto | null }> {
  if (!request.isMultipart()) throw badRequest('Send the session as multipart/form-data', 'body');
  const fields: Record<string, string> = {};
  let photo: IncomingPhoto | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    const file = part as MultipartFile;
    if (file.fieldname !== 'sessionPhoto') throw badRequest('The photo must be sent in a field named "sessionPhoto"', 'sessionPhoto');
    const data = await file.toBuffer();
    // A browser sends an empty file part when no photo was chosen.
    if (data.length > 0) photo = { data, filename: file.filename || 'photo', contentType: file.mimetype };
  }
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw describeIssue(parsed.error, 'body', fields);
  if (photo && !photo.contentType.startsWith('image/')) throw badRequest('The photo must be an image', 'sessionPhoto');
  return { form: parsed.data, photo };
}
