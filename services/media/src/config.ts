import { serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const mediaConfigSchema = serviceConfigSchema(
  { port: 4003, database: 'hoptrack_media' },
  {
    /** Any S3-compatible endpoint: MinIO in compose, s3rver on machines without Docker. */
    S3_ENDPOINT: z.url().default('http://127.0.0.1:4569'),
    S3_ACCESS_KEY: z.string().min(1).default('S3RVER'),
    S3_SECRET_KEY: z.string().min(1).default('S3RVER'),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{2,62}$/, { error: 'must be a valid bucket name' }).default('hoptrack-media'),
    /** How long an upload URL handed to a browser stays valid. */
    UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  },
);

export type MediaConfig = z.infer<typeof mediaConfigSchema>;
