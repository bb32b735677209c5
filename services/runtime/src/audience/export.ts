import type { EventEnvelope, ExportingService, ExportPart } from '@hoptrack/proto';
import { nanos, type ObjectStore } from 'nats';
import type { Logger } from 'pino';
import type { Bus } from '../bus/connection';
import { ensureStreams } from '../bus/connection';
import { startConsumer, type RunningConsumer } from '../bus/consumer';
import { publishNow } from '../bus/publish-now';

/** The services that export: those whose process contract in proto promises an export part. */
export { EXPORTING_SERVICES, type ExportingService } from '@hoptrack/proto';

/** Parts wait here for the assembler at most this long (an export never assembled is asked for again). */
const PARTS_TTL_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * The exports object store of the namespace (JetStream: every service has
 * the bus, and a part may be larger than an event). Its stream is
 * `OBJ_<namespace>_EXPORTS`; the assembler deletes each export's parts once
 * the zip is in S3, and the TTL takes what a failure left behind.
 */
export function exportParts(bus: Bus): Promise<ObjectStore> {
  // As many copies as the namespace's streams (three on a production cluster).
  return bus.js.views.os(`${bus.namespace.replace(/[^A-Za-z0-9_-]/g, '_')}_EXPORTS`, { ttl: nanos(PARTS_TTL_MS), replicas: bus.streamReplicas });
}

export const exportPartName = (exportId: string, service: string) => `${exportId}/${service}.json`;

export interface ExportContributorOptions {
  bus: Bus;
  /** Durable-name prefix of the service: the consumer is `<durable>-export`. */
  durable: string;
  service: ExportingService;
  logger: Logger;
  /** Everything the service holds of the person, as they may read it. */
  build: (userId: string) => Promise<{ data: unknown; files?: ExportPart['files'] }>;
}

/**
 * A service's part of a data export (issue 24): on user.export.requested.v1
 * it writes its part to the exports object store and reports
 * user.export.contributed.v1. Both steps overwrite and de-duplicate, so a
 * redelivery just does them again.
 */
export async function startExportContributor(options: ExportContributorOptions): Promise<RunningConsumer> {
  const logger = options.logger.child({ component: 'export' });
  await ensureStreams(options.bus, ['USERS']);
  const store = await exportParts(options.bus);
  return startConsumer({
    bus: options.bus,
    stream: 'USERS',
    durable: `${options.durable}-export`,
    logger,
    ackWaitMs: 120_000,
    handlers: {
      'user.export.requested.v1': async (event) => {
        const { exportId, userId } = event.data;
        const part = await options.build(userId);
        const body: ExportPart = { service: options.service, data: part.data, files: part.files ?? [] };
        await store.putBlob({ name: exportPartName(exportId, options.service) }, new TextEncoder().encode(JSON.stringify(body, null, 2)));
        await reportContributed(options.bus, event, options.service);
      },
    },
  });
}

async function reportContributed(bus: Bus, requested: EventEnvelope<'user.export.requested.v1'>, service: string): Promise<void> {
  await publishNow(bus, 'user.export.contributed.v1', { ...requested.data, service }, `contributed:${service}:${requested.id}`, requested.requestId);
}

/** The export contributor as one of a service definition's consumers: the definition says the durable prefix and how its part is built. */
export function exportConsumer<X extends { connections: { bus: Bus }; logger: Logger }>(
  service: ExportingService,
  part: (context: X) => Pick<ExportContributorOptions, 'durable' | 'build'>,
): (context: X) => Promise<RunningConsumer> {
  return (context) => startExportContributor({ ...part(context), bus: context.connections.bus, logger: context.logger, service });
}
