import { executeSql, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db } from '../db';
import type { NotificationSetting } from '../generated/prisma/client';

/** A person's per-kind choices (notification_settings); a kind without a row has its default. */
export const settingsRepository = {
  listFor(db: Db, userId: string): Promise<NotificationSetting[]> {
    return db.notificationSetting.findMany({ where: { userId } });
  },

  async save(db: Db, userId: string, kind: string, setting: { inApp: boolean; email: boolean }): Promise<void> {
    await db.notificationSetting.upsert({ where: { userId_kind: { userId, kind } }, create: { userId, kind, ...setting }, update: setting });
  },

  async deleteOwnedBy(db: SqlClient, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM "notification_settings" WHERE user_id = ${userId}::uuid`);
  },
};
