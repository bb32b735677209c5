import { runService, type RunningConsumer } from '@hoptrack/runtime';
import { buildSocialApp } from './app';
import { socialConfigSchema } from './config';
import { openConnections } from './connections';
import { startUsersConsumer } from './consumers/users.consumer';

await runService({
  name: 'social-graph',
  configSchema: socialConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay } = await buildSocialApp({ config, logger, metrics, ...connections });
    let consumer: RunningConsumer | undefined;
    return {
      app,
      async start() {
        relay.start();
        consumer = await startUsersConsumer({ bus: connections.bus, prisma: connections.prisma, durable: config.USERS_CONSUMER, logger });
      },
      closers: [
        { name: 'users consumer', close: async () => consumer?.stop() },
        { name: 'outbox relay', close: () => relay.stop() },
        { name: 'connections', close: () => connections.close() },
      ],
    };
  },
});
