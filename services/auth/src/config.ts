import { baseConfigSchema } from '@hoptrack/runtime';
import { z } from 'zod';

const DEV_SECRET = 'hoptrack-development-secret-change-me-please';

export const authConfigSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(1).max(65535).default(4001),
    DATABASE_URL: baseConfigSchema.shape.DATABASE_URL.default('postgresql://postgres@127.0.0.1:5432/hoptrack_auth'),
    JWT_SECRET: baseConfigSchema.shape.JWT_SECRET.optional(),
    JWT_EXPIRES_IN: z.string().regex(/^\d+\s*[smhd]?$/, { error: "like '7d', '12h' or seconds" }).default('7d'),
    /** Where the web app lives; reset links point there. */
    PUBLIC_WEB_URL: z.url().default('http://localhost:5173'),
    /** smtp://user:pass@host:port — when unset, reset links are logged instead of mailed. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Hoptrack <no-reply@hoptrack.local>'),
    LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
    FORGOT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(15 * 60 * 1000),
    /** `off` leaves events in the outbox for another relay (or a later start) to publish. */
    OUTBOX_RELAY: z.enum(['on', 'off']).default('on'),
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
  })
  .transform((config, ctx) => {
    // A forgotten secret in production must stop the process, not sign tokens anyone can forge.
    if (!config.JWT_SECRET && config.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
      return z.NEVER;
    }
    return { ...config, JWT_SECRET: config.JWT_SECRET ?? DEV_SECRET };
  });

export type AuthConfig = z.infer<typeof authConfigSchema>;
