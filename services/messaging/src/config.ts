import { serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const messagingConfigSchema = serviceConfigSchema(
  { port: 4006, database: 'hoptrack_messaging' },
  {
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Durable-name prefix of the read-model consumers (users, blocks); one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('messaging-read-model'),
    /** Open live streams one instance serves before it answers 503 (each holds a socket and a little memory). */
    LIVE_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
    /** Open live streams per user per instance (tabs, devices); the oldest is closed beyond it. */
    LIVE_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(10),
    LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
    /**
     * Presence (issue 25): how long someone still counts as online after their
     * last live stream closed, so a reload or a network blip does not flicker
     * them offline for their friends.
     */
    PRESENCE_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    /**
     * How often each instance renews its open streams in Redis (and looks for
     * people whose time ran out). A stream not renewed for three of these (its
     * instance crashed) no longer counts.
     */
    PRESENCE_HEARTBEAT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  },
);

export type MessagingConfig = z.infer<typeof messagingConfigSchema>;
