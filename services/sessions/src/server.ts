import { runService, type RunningConsumer } from '@hoptrack/runtime';
import { buildSessionsApp } from './app';
import { sessionsConfigSchema } from './config';
import { openConnections } from './connections';
import { startReadModelConsumers } from './consumers/read-model.consumer';

await runService({
  name: 'sessions',
  configSchema: sessionsConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'sessions');
    const { app, relay } = buildSessionsApp({ config, logger, metrics, ...connections });
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
