import { runService } from '@hoptrack/runtime';
import { buildMediaApp, createObjectStore } from './app';
import { mediaConfigSchema } from './config';

await runService({
  name: 'media',
  configSchema: mediaConfigSchema,
  async build({ config, logger, metrics }) {
    const store = createObjectStore(config);
    await store.ensureBucket(config.S3_REGION);
    const { app } = await buildMediaApp({ config, logger, metrics, store });
    return { app, closers: [] };
  },
});
