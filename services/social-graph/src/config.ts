import { serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const socialConfigSchema = serviceConfigSchema(
  { port: 4002, database: 'hoptrack_social_graph' },
  {
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Prefix of the audience consumer's durable name (`<prefix>-people`); one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('social-graph-read-model'),
    /** Durable name of the consumer counting sessions for the stat tiles. */
    SESSIONS_CONSUMER: z.string().default('social-graph-sessions'),
  },
);

export type SocialConfig = z.infer<typeof socialConfigSchema>;
