import { serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const placesConfigSchema = serviceConfigSchema(
  { port: 4004, database: 'hoptrack_places' },
  {
    /** `auto` loads the catalogue at start-up when it is empty; `off` leaves it to `npm run seed`. */
    CATALOGUE_SEED: z.enum(['auto', 'off']).default('auto'),
    /** With a key the Places proxy asks Google; without one it answers from the local catalogue. */
    GOOGLE_PLACES_API_KEY: z.string().min(1).optional(),
    /** `on` puts a made-up pub menu on brewpubs (no open data has menus): make dev and browser tests only. */
    DEMO_MENUS: z.enum(['on', 'off']).default('off'),
    /** Durable name of the consumer keeping the reviewers and blocks read models; one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('places-read-model'),
    /** How often the relay looks for outbox rows a commit's poke missed (a crash, another replica). */
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
  },
);
export type PlacesConfig = z.infer<typeof placesConfigSchema>;
