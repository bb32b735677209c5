import { fileUrlSecretSchema, serviceConfigSchema } from '@hoptrack/runtime';
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
    /**
     * How long a call to S3 may go without a byte before it fails as an outage (503 on the
     * request path, a later try for a job): until S3's answer starts, so a slow browser
     * downloading a file is never cut by it.
     */
    S3_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /** How long an upload URL handed to a browser stays valid. */
    UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
    /**
     * Lifetime of the signed image URLs a viewer receives for album photos: a day,
     * so a tab left open keeps its images; a revoked friendship stops new URLs at once.
     */
    /** The key of signed file URLs (and media's upload tokens): shared by sessions and media, never the tokens' key. */
    FILE_URL_SECRET: fileUrlSecretSchema,
    FILE_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(24 * 3600),
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Durable names of the read-model consumers; one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('media-read-model'),
    THUMBNAIL_CONSUMER: z.string().default('media-thumbnails'),
    THUMBNAIL_QUEUE: z.string().default('thumbnails'),
    /**
     * Photos rendered at once per worker process (its render slots). Each render decodes
     * its photo once and makes both sizes from those pixels, so a process keeps at most
     * THUMBNAIL_CONCURRENCY × THUMBNAIL_SHARP_THREADS threads busy with pixels. One slot
     * by default: on the bench's 2 cores, one slot came nearer bare sharp (0.72–0.79 of
     * it against 0.56–0.68 with two) and left the API a core (docs/benchmarks.md); scale
     * thumbnails out with replicas, not slots.
     */
    THUMBNAIL_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    /**
     * Jobs the worker holds beyond its render slots, per slot: such a job reads its
     * original from S3 while the others render, and a rendered job writes its versions
     * and marks its photo while the next renders. Costs memory (one original each),
     * not CPU; 0 = a job's S3 and database work waits in its slot, as before.
     */
    THUMBNAIL_PREFETCH: z.coerce.number().int().min(0).max(4).default(1),
    /**
     * libvips threads per image (sharp.concurrency()). Set here rather than left to
     * sharp, whose default depends on the build (1 with glibc's allocator, one per
     * core with musl or jemalloc): a single 12 MP photo must not take every core.
     */
    THUMBNAIL_SHARP_THREADS: z.coerce.number().int().min(1).max(16).default(1),
    /**
     * The worker's CPU priority (Unix nice, 0–19; 0 = as the API processes). Thumbnails
     * are background work: on a machine shared with the API, the request path gets the
     * CPU first when both want it, and the worker still has every core nobody else uses.
     */
    THUMBNAIL_NICE: z.coerce.number().int().min(0).max(19).default(10),
    THUMBNAIL_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    /** How long a job's lock lasts; a worker that dies mid-job frees it after this and another run picks it up. */
    THUMBNAIL_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
    THUMBNAIL_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
    /**
     * (worker) The orphan sweep (workers/orphans/sweeper.ts): objects no row names are deleted
     * once they are older than ORPHAN_GRACE_MS, which must exceed the longest time between an
     * object's put and the commit of the row naming it (an upload, an export's zip, a profile
     * picture until auth records it and media's read model hears of it). Every ORPHAN_SWEEP_MS;
     * 0 = no sweep.
     */
    ORPHAN_GRACE_MS: z.coerce.number().int().min(1000).default(3600_000),
    ORPHAN_SWEEP_MS: z.coerce.number().int().min(0).default(600_000),
    /**
     * How long a data export's zip is kept once built (the person's next export replaces it
     * sooner); auth shows the export as downloadable until then. The worker's sweep deletes it.
     */
    EXPORT_TTL_HOURS: z.coerce.number().positive().default(48),
    /** (worker) The sessions service's internal API: the orphan sweep asks it which session photos a session names. */
    SESSIONS_INTERNAL_URL: z.url().default('http://127.0.0.1:4005'),
  },
);

export type MediaConfig = z.infer<typeof mediaConfigSchema>;
