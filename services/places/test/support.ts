import { createMetrics, createTokenService } from '@hoptrack/runtime';
import { memoryLogger, testDatabaseUrl } from '@hoptrack/runtime/testing';
import type { LightMyRequestResponse } from 'fastify';
import { buildPlacesApp } from '../src/app';
import { placesConfigSchema } from '../src/config';
import { openDatabase } from '../src/connections';
import type { PrismaClient } from '../src/db';

export const databaseUrl = testDatabaseUrl('places');

export interface TestPlaces {
  prisma: PrismaClient;
  get(url: string): Promise<LightMyRequestResponse>;
  anonymous(url: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The places app on its test database, with the real catalogue loaded (once; the seed is idempotent). */
export async function startTestPlaces(): Promise<TestPlaces> {
  const secret = 'test-secret-test-secret-test-secret-123';
  const config = placesConfigSchema.parse({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, JWT_SECRET: secret });
  const { logger } = memoryLogger('places');
  const prisma = await openDatabase(config, logger);
  const { app } = buildPlacesApp({ config, logger, metrics: createMetrics('places'), prisma });
  await app.ready();
  const token = await createTokenService({ secret }).sign({ userId: '0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', tokenVersion: 0 });
  return {
    prisma,
    get: (url) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
    anonymous: (url) => app.inject({ method: 'GET', url }),
    async close() {
      await app.close();
      await prisma.$disconnect();
    },
  };
}
