import { runService, type RunningConsumer } from '@hoptrack/runtime';
import { buildMediaApp } from './app';
import { mediaConfigSchema } from './config';
import { openConnections } from './connections';
import { startReadModelConsumers } from './consumers/read-model.consumer';

await runService({
  name: 'media',
  configSchema: mediaConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'media');
    const { app, relay } = await buildMediaApp({ config, logger, metrics, ...connections });
    let consumers: RunningConsumer[] = [];
    return {
      app,
      async start() {
        relay.start();
        consumers = await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger });
      },
      closers: [
        { name: 'read-model consumers', close: () => Promise.all(consumers.map((c) => c.stop())) },
        { name: 'outbox relay', close: () => relay.stop() },
        { name: 'connections', close: () => connections.close() },
      ],
    };
  },
});
