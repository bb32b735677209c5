import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Secrets that travel in a URL path (reset links) are cut out before a URL is logged. */
export function redactUrl(url: string): string {
  return url.replace(/(\/verify-reset-token\/)[^/?#]+/, '$1[redacted]').replace(/([?&]token=)[^&#]+/, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
}

/**
 * Standard output without a write per line: lines logged while a write is
 * under way go out together in the next one (sonic-boom, asynchronous, no
 * minimum length, so a quiet process still writes each line at once). At
 * a thousand requests a second a request log line each was a thousand write
 * calls a second per process (docs/benchmarks.md). Pino flushes what is
 * buffered when the process exits; a SIGKILL loses at most the lines of the
 * write under way.
 */
let stdout: DestinationStream | undefined;
/** One per process, however many loggers: two buffered writers on one descriptor could split each other's lines. */
export function stdoutDestination(): DestinationStream {
  stdout ??= pino.destination({ dest: 1, sync: false });
  return stdout;
}

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
      serializers: {
        req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url ?? ''), host: req.host, remoteAddress: req.ip }),
      },
    },
    destination ?? stdoutDestination(),
  );
}
