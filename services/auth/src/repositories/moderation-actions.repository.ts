import type { Db } from '../db';
import type { ModerationAction } from '../generated/prisma/client';

export type NewModerationAction = Pick<ModerationAction, 'subjectId' | 'moderatorId' | 'action' | 'reason' | 'days' | 'endsAt' | 'createdAt'>;

/** Moderators' actions on accounts (issue 42): written with the account's change, read as the person's notices and history. */
export const moderationActionsRepository = {
  create(db: Db, data: NewModerationAction): Promise<ModerationAction> {
    return db.moderationAction.create({ data });
  },
  /** The actions concerning a person, newest first, at most `limit` (their notices). */
  concerning(db: Db, subjectId: string, limit: number): Promise<ModerationAction[]> {
    return db.moderationAction.findMany({ where: { subjectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  },
  /** All of them, oldest first (the person's data export: a person has a few at most). */
  allConcerning(db: Db, subjectId: string): Promise<ModerationAction[]> {
    return db.moderationAction.findMany({ where: { subjectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  },
};
