import { connectBus, ensureStreams, prepareDatabase, type Bus, type Logger } from '@hoptrack/runtime';
import { fileURLToPath } from 'node:url';
import type { SocialConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface SocialConnections {
  prisma: PrismaClient;
  bus: Bus;
  close(): Promise<void>;
}

export async function openConnections(config: SocialConfig, logger: Logger): Promise<SocialConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger);
  const prisma = createPrisma(config.DATABASE_URL);
  const bus = await connectBus({ url: config.NATS_URL, name: 'social-graph', namespace: config.BUS_NAMESPACE, logger });
  await ensureStreams(bus, ['USERS', 'SOCIAL']);
  return {
    prisma,
    bus,
    async close() {
      await bus.close();
      await prisma.$disconnect();
    },
  };
}
