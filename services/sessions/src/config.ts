import { fileUrlSecretSchema, serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const sessionsConfigSchema = serviceConfigSchema(
  { port: 4005, database: 'hoptrack_sessions' },
  {
    /** The media service, for session photos (its internal upload API, never through the gateway). */
    MEDIA_INTERNAL_URL: z.url().default('http://127.0.0.1:4003'),
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Durable-name prefix of the read-model consumers (users, graph); one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('sessions-read-model'),
    /** Durable name of the consumer that drops feed cards on the events of the changes to them. */
    CARDS_CONSUMER: z.string().default('sessions-cards'),
    /** Lifetime of a cached feed card: Redis memory, and the bound on staleness should every invalidation of a change fail. */
    CARD_TTL_SECONDS: z.coerce.number().int().min(10).max(7 * 24 * 3600).default(3600),
    /**
     * Feed cards also kept parsed in each process's memory (checked against
     * Redis's version of each card on every read, so never stale); 0 = none.
     * About 3 kB of heap each: 5,000 is about 15 MB per process.
     */
    CARD_MEMORY_ENTRIES: z.coerce.number().int().min(0).max(200_000).default(5000),
    /** Durable names of the fan-out worker's consumers (sessions, graph changes). */
    FANOUT_CONSUMER: z.string().default('sessions-fanout'),
    FANOUT_QUEUE: z.string().default('feed-fanout'),
    /** Followers written per fan-out job: a big author's session becomes a chain of jobs, so no job holds the queue long. */
    FANOUT_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
    /**
     * Jobs one worker runs at once. A job is three round trips (its SQL, its timeline write, BullMQ's
     * completion), so few jobs at once leave the process waiting: 4 drained about half as fast (docs/benchmarks.md).
     */
    FANOUT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(16),
    FANOUT_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
    FANOUT_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
    /** How soon an event whose fan-out consumer died is delivered again (its first batch runs in the consumer; JetStream's ack wait). */
    FANOUT_ACK_WAIT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
    FANOUT_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30_000),
    /**
     * Entries kept per timeline; older pages come from Postgres. 120 keeps a
     * timeline one listpack under Redis's default zset-max-listpack-entries
     * (128: the entries, the completeness mark, one more while a write trims):
     * about 6 KB a person, against 135 KB for 800 entries as a skiplist
     * (docs/benchmarks.md, "Timelines"). Above 126, raise that Redis setting too.
     */
    TIMELINE_CAP: z.coerce.number().int().min(10).max(10_000).default(120),
    /** A timeline nobody read for this many days is gone from Redis (its TTL, renewed by reading at most once a day); the next read rebuilds it. */
    TIMELINE_ACTIVE_DAYS: z.coerce.number().int().min(2).max(365).default(30),
    /**
     * Where timelines live: unset, REDIS_URL. A Redis of their own can evict
     * (maxmemory-policy allkeys-lru: a missing timeline is rebuilt on read),
     * while queues and limiters stay on REDIS_URL's noeviction (docs/configuration.md).
     */
    TIMELINE_REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
    /** Lifetime of the signed session-photo URLs handed to viewers (as media's album images). */
    /** The key of signed file URLs (and media's upload tokens): shared by sessions and media, never the tokens' key. */
    FILE_URL_SECRET: fileUrlSecretSchema,
    FILE_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(24 * 3600),
  },
);

export type SessionsConfig = z.infer<typeof sessionsConfigSchema>;
