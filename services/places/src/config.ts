import { serviceConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const placesConfigSchema = serviceConfigSchema(
  { port: 4004, database: 'hoptrack_places' },
  {
    /** `auto` loads the catalogue at start-up when it is empty; `off` leaves it to `npm run seed`. */
    CATALOGUE_SEED: z.enum(['auto', 'off']).default('auto'),
  },
);
export type PlacesConfig = z.infer<typeof placesConfigSchema>;
