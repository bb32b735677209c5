import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type Db = PrismaClient | Prisma.TransactionClient;
export type { Bar, BarBeer, BarFood, BarReview, Beer, FoodItem, ReviewHelpfulness } from './generated/prisma/client';

/** `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
export function createPrisma(connectionString: string, poolMax = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolMax }) });
}
