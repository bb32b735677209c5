import type { Db } from '../db';
import type { DataExport } from '../generated/prisma/client';

export type NewDataExport = Pick<DataExport, 'id' | 'userId' | 'requestedAt'>;
export type ReadyExport = Pick<DataExport, 'readyAt' | 'expiresAt' | 'zipKey' | 'size'>;

/** A person's data exports: pending until media reports the zip, then ready. */
export const dataExportsRepository = {
  /** The person's latest export still being prepared. */
  findPending(db: Db, userId: string): Promise<DataExport | null> {
    return db.dataExport.findFirst({ where: { userId, status: 'pending' }, orderBy: { requestedAt: 'desc' } });
  },
  /** The export if it is this person's. */
  findOwned(db: Db, id: string, userId: string): Promise<DataExport | null> {
    return db.dataExport.findFirst({ where: { id, userId } });
  },
  /** The person's latest `limit` exports, newest first. */
  listLatest(db: Db, userId: string, limit: number): Promise<DataExport[]> {
    return db.dataExport.findMany({ where: { userId }, orderBy: { requestedAt: 'desc' }, take: limit });
  },
  create(db: Db, data: NewDataExport): Promise<DataExport> {
    return db.dataExport.create({ data });
  },
  /** Marks the person's export ready if it is still pending; how many rows changed (0 or 1). */
  async markReady(db: Db, id: string, userId: string, ready: ReadyExport): Promise<number> {
    return (await db.dataExport.updateMany({ where: { id, userId, status: 'pending' }, data: { status: 'ready', ...ready } })).count;
  },
  /** The person's other ready exports end at `at` (a newer zip replaced theirs); how many changed. */
  async expireReadyBesides(db: Db, userId: string, id: string, at: Date): Promise<number> {
    return (await db.dataExport.updateMany({ where: { userId, status: 'ready', id: { not: id }, expiresAt: { gt: at } }, data: { expiresAt: at } })).count;
  },
  /** Deletes every export of the person; how many went. */
  async deleteOwnedBy(db: Db, userId: string): Promise<number> {
    return (await db.dataExport.deleteMany({ where: { userId } })).count;
  },
};
