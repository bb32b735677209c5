import type { SharedPool } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type { Photo, PhotoAlbum } from './generated/prisma/client';
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Prisma over the service's pg pool (`sharedPool`, DATABASE_POOL_MAX), the
 * pool its plain SQL shares (the outbox relay): one connection budget.
 */
export function createPrisma(pool: SharedPool['pool']): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
