import { baseConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

/** The board needs Redis (where the queues live) and its operator credentials; no database, no bus. */
export const boardConfigSchema = baseConfigSchema
  .pick({ NODE_ENV: true, LOG_LEVEL: true, HOST: true, REDIS_URL: true, BUS_NAMESPACE: true, SHUTDOWN_TIMEOUT_MS: true, SHUTDOWN_DRAIN_MS: true })
  .extend({
    PORT: z.coerce.number().int().min(1).max(65535).default(4020),
    QUEUE_BOARD_USER: z.string().min(1).default('operator'),
    /** Required: the board can retry and delete jobs. */
    QUEUE_BOARD_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }),
    /** The BullMQ queues to show (their names in the workers' config). */
    QUEUE_BOARD_QUEUES: z
      .string()
      .default('thumbnails,feed-fanout,notification-mail,challenges-daily')
      .transform((list) => list.split(',').map((q) => q.trim()).filter(Boolean)),
  });

export type BoardConfig = z.infer<typeof boardConfigSchema>;
