import { runProcess } from '@hoptrack/runtime';
import { buildBoardApp } from './app';
import { boardConfigSchema } from './config';

await runProcess({
  name: 'queue-board',
  configSchema: boardConfigSchema,
  async build({ config, logger, metrics }) {
    const board = await buildBoardApp({ config, logger, metrics });
    return { app: board.app, closers: [{ name: 'queues', close: () => board.close() }] };
  },
});
