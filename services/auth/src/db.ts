import type { SharedPool } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';

export type { PrismaClient };
export type { User } from './generated/prisma/client';
/** The client or an open transaction: repository calls join whichever they are given. */
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Prisma over the service's pg pool (`sharedPool`, DATABASE_POOL_MAX), the
 * pool its plain SQL shares (the outbox relay): one connection budget.
 */
export function createPrisma(pool: SharedPool['pool']): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
