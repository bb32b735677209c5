import { notFound } from '@hoptrack/runtime';
import type { User } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { usersRepository as users } from '../repositories/users.repository';
import type { AccountsDeps } from './accounts';
import { toSnapshot } from './user-views';

/** What a change of an account made by someone else (a moderator, an admin, an operator) needs. */
export type AccountChangeDeps = Pick<AccountsDeps, 'prisma' | 'outbox' | 'onEventsCommitted' | 'settle' | 'clock'>;

/**
 * One change of an account that every service must know before it answers
 * (issue 42: roles, suspensions): the row locked, `change` given it, the
 * snapshot it returns (if any) on user.updated.v1 in the same transaction,
 * then published and waited for (auth's read-model barrier), as a password
 * reset is. `change` answers the account as changed — null when nothing of it
 * changed, so nothing is published — and whatever else the caller keeps.
 */
export async function changeAccount<R>(
  deps: AccountChangeDeps,
  userId: string,
  requestId: string,
  change: (tx: Prisma.TransactionClient, current: User) => Promise<{ updated: User | null; result: R }>,
): Promise<R> {
  let eventId: string | undefined;
  const result = await deps.prisma.$transaction(async (tx) => {
    const current = await users.lockById(tx, userId);
    if (!current) throw notFound('User not found');
    const { updated, result } = await change(tx, current);
    if (updated) eventId = (await deps.outbox.enqueue(tx, 'user.updated.v1', toSnapshot(updated), requestId)).id;
    return result;
  });
  if (eventId) {
    deps.onEventsCommitted();
    await deps.settle?.([eventId]);
  }
  return result;
}
