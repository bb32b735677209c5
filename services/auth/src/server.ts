import { eventDrivenService, runService } from '@hoptrack/runtime';
import { buildAuthApp } from './app';
import { authConfigSchema } from './config';
import { openConnections } from './connections';

await runService({
  name: 'auth',
  configSchema: authConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay, mail, scrubber, startErasureReports, startExports } = await buildAuthApp({ config, logger, metrics, ...connections });
    // A deployment may leave relaying to other replicas (OUTBOX_RELAY=off): then this one never starts it.
    // The mail relay and the erasure scrubber run in every replica (rows are claimed with SKIP LOCKED).
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay: config.OUTBOX_RELAY === 'on' ? relay : undefined,
      consumers: async () => [mail.start(), scrubber.start(), await startErasureReports(), ...(await startExports())],
    });
  },
});
