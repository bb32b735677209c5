import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';

export type { PrismaClient };
export type { User } from './generated/prisma/client';
/** The client or an open transaction: repository calls join whichever they are given. */
export type Db = PrismaClient | Prisma.TransactionClient;

/** The runtime client talks to Postgres through the pg driver adapter; no engine binary involved. */
/** `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
export function createPrisma(connectionString: string, poolMax = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolMax }) });
}
