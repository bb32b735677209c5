import { format } from 'node:util';
import egLoggers from 'express-gateway/lib/logger';
import pino from 'pino';
import { stdoutDestination } from '@hoptrack/runtime/logger';

/**
 * One JSON line per event, in the same shape as the services' pino logs
 * (service, reqId, ISO time), so one log pipeline reads the whole stack.
 */
export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'gateway' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  },
  // As the services' (runtime logger.ts): no write call per line under load.
  stdoutDestination(),
);

const MESSAGE = Symbol.for('message');
const SPLAT = Symbol.for('splat');
const PINO_LEVELS: Record<string, number> = { error: 50, warn: 40, info: 30, http: 30, verbose: 20, debug: 20, silly: 10 };

/**
 * express-gateway logs through its own winston loggers as coloured text.
 * Swap their format for pino-shaped JSON lines so the gateway process never
 * mixes two formats on stdout.
 */
export function expressGatewayLogsAsJson(): void {
  for (const [component, egLogger] of Object.entries(egLoggers)) {
    if (typeof egLogger === 'function') continue;
    egLogger.format = {
      transform(info) {
        const args = Array.isArray(info[SPLAT]) ? info[SPLAT] : [];
        info[MESSAGE] = JSON.stringify({
          level: PINO_LEVELS[info.level] ?? 30,
          time: new Date().toISOString(),
          service: 'gateway',
          component: `express-gateway:${component}`,
          msg: format(String(info.message), ...args),
        });
        return info;
      },
    };
  }
}
