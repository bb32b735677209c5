import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type { BeerSession, Comment, Like, Reaction } from './generated/prisma/client';
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections.
 * `onStatement`: sees every statement sent (the tests count a feed page's).
 */
export function createPrisma(connectionString: string, poolMax = 10, onStatement?: (sql: string) => void): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max: poolMax });
  if (!onStatement) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onStatement(event.query));
  return prisma;
}
