import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type Db = PrismaClient | Prisma.TransactionClient;
