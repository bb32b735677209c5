import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type { BlockedUser, Friendship, User } from './generated/prisma/client';
/** The client or an open transaction: repository calls join whichever they are given. */
export type Db = PrismaClient | Prisma.TransactionClient;

/** `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
export function createPrisma(connectionString: string, poolMax = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolMax }) });
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
