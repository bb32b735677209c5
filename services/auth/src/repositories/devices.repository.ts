import type { Db } from '../db';
import type { Device } from '../generated/prisma/client';

export type NewDevice = Pick<Device, 'userId' | 'userAgent' | 'network' | 'expiresAt'> & { now: Date };

/** Where each person is signed in: one row a sign-in, its id the `sid` of its tokens (issue 40). */
export const devicesRepository = {
  create(db: Db, { now, ...data }: NewDevice): Promise<Device> {
    return db.device.create({ data: { ...data, createdAt: now, lastUsedAt: now } });
  },
  find(db: Db, userId: string, id: string): Promise<Device | null> {
    return db.device.findFirst({ where: { id, userId } });
  },
  /** The person's sign-ins whose tokens have not expired, last used first; the expired ones are deleted. */
  async listLive(db: Db, userId: string, now: Date): Promise<Device[]> {
    await db.device.deleteMany({ where: { userId, expiresAt: { lte: now } } });
    return db.device.findMany({ where: { userId }, orderBy: [{ lastUsedAt: 'desc' }, { createdAt: 'desc' }] });
  },
  /** Marks the sign-in used at `now`, unless it was within the last minute (a write a minute at most, not one a request). */
  async touch(db: Db, id: string, now: Date): Promise<void> {
    await db.device.updateMany({ where: { id, lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }, data: { lastUsedAt: now } });
  },
  /** A new token for this sign-in (a password change): it lives until that one expires. */
  async extend(db: Db, id: string, expiresAt: Date): Promise<number> {
    return (await db.device.updateMany({ where: { id }, data: { expiresAt } })).count;
  },
  /** Deletes the sign-in if it is this person's; the row that went, or null. */
  async delete(db: Db, userId: string, id: string): Promise<Device | null> {
    const found = await db.device.findFirst({ where: { id, userId } });
    if (!found) return null;
    return (await db.device.deleteMany({ where: { id, userId } })).count === 1 ? found : null;
  },
  /** Every sign-in of the person but `keep` (a password change or reset: their tokens died with the version). */
  async deleteAllBut(db: Db, userId: string, keep: string | undefined): Promise<number> {
    return (await db.device.deleteMany({ where: { userId, ...(keep ? { id: { not: keep } } : {}) } })).count;
  },
};
