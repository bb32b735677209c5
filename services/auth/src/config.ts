import { DEV_SIGNING_KEY, fileUrlSecretSchema, serviceConfigSchema, signingKeySchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const authConfigSchema = serviceConfigSchema(
  { port: 4001, database: 'hoptrack_auth' },
  {
    /**
     * The private keys tokens are signed with, as a JSON array of Ed25519 JWKs
     * with a `kid`: the first signs, all are published in the JWKS (two during
     * a rollover, docs/operations.md). Outside production, the development key.
     */
    JWT_SIGNING_KEYS: z
      .string()
      .default(JSON.stringify([DEV_SIGNING_KEY]))
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON array of Ed25519 private JWKs' });
          return z.NEVER;
        }
      })
      .pipe(z.array(signingKeySchema).min(1)),
    JWT_EXPIRES_IN: z.string().regex(/^\d+\s*[smhd]?$/, { error: "like '7d', '12h' or seconds" }).default('7d'),
    /** Where the web app lives; reset links point there. */
    PUBLIC_WEB_URL: z.url().default('http://localhost:5173'),
    /** smtp://user:pass@host:port — when unset, reset links are logged instead of mailed. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Hoptrack <no-reply@hoptrack.local>'),
    /** How often the mail relay looks for mail left behind (a send is also started right after each request that queues one). */
    MAIL_POLL_MS: z.coerce.number().int().positive().default(1000),
    LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
    /** Failed logins per account per window from all addresses together; past it, that account's logins answer 429. */
    LOGIN_ACCOUNT_FAILURES_MAX: z.coerce.number().int().positive().default(50),
    FORGOT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
    /** Registrations per client address per window (issue 39: each is an argon2 hash and a mail to any address). */
    REGISTER_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(15 * 60 * 1000),
    /** `off` leaves events in the outbox for another relay (or a later start) to publish. */
    OUTBOX_RELAY: z.enum(['on', 'off']).default('on'),
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** The durable consumer of the services' user.erased.v1 reports (one per deployment). */
    ERASURE_CONSUMER: z.string().default('auth-erasure-reports'),
    /** How often the erasure scrubber looks for finished erasures whose streams still name the person. */
    ERASURE_POLL_MS: z.coerce.number().int().positive().default(2000),
    /**
     * How long after every service erased a deleted account auth sends the
     * deletion again, for the second pass that erases what writes in flight
     * at the deletion committed after the first (issue 38, item 3). Longer
     * than any write takes from its token check to its commit. 0: no second pass.
     */
    ERASURE_RESWEEP_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    /**
     * The erasure ledger's database (issue 38, item 7): the ids of deleted accounts, which a
     * restore erases again. Not backed up with the rest and never restored over; production
     * puts it on another server than the services' databases (docs/operations.md). Unset:
     * auth's server, database `<auth database>_erasure_ledger`.
     */
    ERASURE_LEDGER_URL: z.url().optional(),
    /** The durable consumer of the people read models' user.changes.requested.v1 (one per deployment). */
    CHANGES_CONSUMER: z.string().default('auth-user-changes'),
    /** The durable consumer of media's user.export.ready.v1 (one per deployment); auth's own export part is `<this>-export`. */
    EXPORT_CONSUMER: z.string().default('auth-exports'),
    /** The media service's key of upload links: a client may name its new picture by the link it was given. */
    FILE_URL_SECRET: fileUrlSecretSchema,
  },
);

export type AuthConfig = z.infer<typeof authConfigSchema>;
