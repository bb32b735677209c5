import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@hoptrack/runtime';

export interface MemoryLogger {
  logger: Logger;
  /** Every log line written so far, parsed. */
  lines: Array<Record<string, unknown>>;
}

/** A real pino logger whose JSON lines land in an array, so tests can assert on what operators would see. */
export function memoryLogger(service: string, level = 'info'): MemoryLogger {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: createLogger(service, level, sink), lines };
}
