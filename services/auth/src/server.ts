import { runService } from '@hoptrack/runtime';
import { buildAuthApp } from './app';
import { authConfigSchema } from './config';
import { openConnections } from './connections';

await runService({
  name: 'auth',
  configSchema: authConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay } = await buildAuthApp({ config, logger, metrics, ...connections });
    return {
      app,
      start: () => {
        if (config.OUTBOX_RELAY === 'on') relay.start();
      },
      closers: [
        { name: 'outbox relay', close: () => relay.stop() },
        { name: 'connections', close: () => connections.close() },
      ],
    };
  },
});
