import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type { BlockedUser, Friendship, User } from './generated/prisma/client';
/** The client or an open transaction: repository calls join whichever they are given. */
export type Db = PrismaClient | Prisma.TransactionClient;

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
