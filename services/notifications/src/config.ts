import { serviceConfigSchema, unsubscribeSecretSchema } from '@hoptrack/runtime';
import { z } from 'zod';

export const notificationsConfigSchema = serviceConfigSchema(
  { port: 4007, database: 'hoptrack_notifications' },
  {
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(1000),
    /** Durable-name prefix of the audience consumers (people, graph); one per deployment. */
    READ_MODEL_CONSUMER: z.string().default('notifications-read-model'),
    /** Durable-name prefix of the inbox consumers (`-social`, `-sessions`, `-messages`, `-challenges`); one per deployment. */
    INBOX_CONSUMER: z.string().default('notifications-inbox'),
    /** smtp://user:pass@host:port — without it no notification is mailed (the in-app inbox still fills). */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Hoptrack <no-reply@hoptrack.local>'),
    /** Where the web app lives: the links in mails point there. */
    PUBLIC_WEB_URL: z.url().default('http://localhost:5173'),
    /** A person's notifications within this window go out as one mail ("ten likes make one mail"). */
    MAIL_BATCH_MS: z.coerce.number().int().min(10).default(10 * 60 * 1000),
    UNSUBSCRIBE_SECRET: unsubscribeSecretSchema,
  },
);

export type NotificationsConfig = z.infer<typeof notificationsConfigSchema>;
