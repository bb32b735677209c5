import { serviceConfigSchema } from '@hoptrack/runtime';
import { CHALLENGE_KIND_NAMES } from '@hoptrack/proto';
import { z } from 'zod';

export const challengesConfigSchema = serviceConfigSchema(
  { port: 4008, database: 'hoptrack_challenges' },
  {
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Durable-name prefix of the audience consumers (people, graph); one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('challenges-read-model'),
    /** Durable-name prefix of the progress consumers (`-sessions`, `-places`, `-media`); one per deployment. */
    PROGRESS_CONSUMER: z.string().default('challenges-progress'),
    /** How many of the catalogue's kinds each date gets (rotating, so days differ); all of them in the test stack. */
    CHALLENGES_PER_DAY: z.coerce.number().int().min(1).max(CHALLENGE_KIND_NAMES.length).default(3),
    /** How often the generator's repeatable job makes sure the coming dates have their challenges. */
    GENERATOR_EVERY_MS: z.coerce.number().int().min(1000).default(60 * 60 * 1000),
  },
);

export type ChallengesConfig = z.infer<typeof challengesConfigSchema>;
