import { Prisma, type PrismaClient, type User } from '../generated/prisma/client';

/** The client or an open transaction: repository calls join whichever they are given. */
export type Db = PrismaClient | Prisma.TransactionClient;

export type NewUser = Pick<User, 'email' | 'username' | 'displayName' | 'password'>;
export type UserChanges = Partial<
  Pick<
    User,
    | 'displayName'
    | 'bio'
    | 'profilePicture'
    | 'isProfilePrivate'
    | 'allowDirectMessages'
    | 'showOnlineStatus'
    | 'password'
  >
> & { tokenVersion?: { increment: number } };

/** All reads and writes of the users table. */
export const usersRepository = {
  findById(db: Db, id: string): Promise<User | null> {
    return db.user.findUnique({ where: { id } });
  },
  findByEmail(db: Db, email: string): Promise<User | null> {
    return db.user.findUnique({ where: { email } });
  },
  findByUsername(db: Db, username: string): Promise<User | null> {
    return db.user.findFirst({ where: { username: { equals: username, mode: 'insensitive' } } });
  },
  /** Locks the row for the rest of the transaction, so concurrent changes apply one after the other. */
  async lockById(db: Prisma.TransactionClient, id: string): Promise<User | null> {
    await db.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${id}::uuid FOR UPDATE`;
    return db.user.findUnique({ where: { id } });
  },
  create(db: Db, data: NewUser): Promise<User> {
    return db.user.create({ data });
  },
  update(db: Db, id: string, changes: UserChanges): Promise<User> {
    return db.user.update({ where: { id }, data: changes });
  },
};

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
