import type { StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import { connectBus, ensureStreams, type Bus, type BusOptions } from './bus/connection';

export interface DatabaseAndBus<P> {
  prisma: P;
  bus: Bus;
  /** Closes the bus first (no new events to handle), then the database. */
  close(): Promise<void>;
}

/**
 * Joins a service's (migrated) database client with its bus connection, the
 * streams it publishes to or consumes from ensured: what every event-driven
 * service opens at start-up and closes at shutdown.
 */
export async function withBus<P extends { $disconnect(): Promise<void> }>(
  prisma: P,
  options: BusOptions & { streams: StreamName[] },
): Promise<DatabaseAndBus<P>> {
  const bus = await connectBus(options);
  await ensureStreams(bus, options.streams);
  return {
    prisma,
    bus,
    async close() {
      await bus.close();
      await prisma.$disconnect();
    },
  };
}
