import type { Prisma } from '../db';
import { friendshipsRepository as friendships } from '../repositories/friendships.repository';
import { sessionFactsRepository as sessionFacts } from '../repositories/session-facts.repository';
import { usersRepository as users } from '../repositories/users.repository';
import { numberPins, pinnedInOrder } from './social-graph';

/**
 * The social graph's part of an account deletion (issue 24), for
 * startErasure's `rows`: every friendship and request of the person in
 * either direction (each side's row: its pin and mute go with it), every
 * block they made or received, their session facts (the stat tiles), and
 * their row of the people table with its e-mail address (the audience
 * consumer deletes it too, in whatever order the two run).
 *
 * Others keep a consistent graph: whoever had pinned them has their other
 * pins renumbered 0, 1, 2… as an unpin would; every count (friends,
 * followers, following, stats) is counted from the rows, so none is stale.
 * No event is published: each service drops the person from its graph on
 * user.deleted.v1 itself, and an event naming them would only carry their
 * id to every stream again.
 */
export async function eraseFromGraph(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  const pinnedThem = (await friendships.ownersWhoPinned(tx, userId)).sort();
  // As an unpin: the owners' rows locked first (as a pin locks them, so neither waits on the other in turn) …
  for (const other of pinnedThem) await friendships.lockFriendsOf(tx, other);
  await friendships.deleteAllOf(tx, userId);
  // … then their pins numbered again without the gap.
  for (const other of pinnedThem) await numberPins(tx, pinnedInOrder(await friendships.lockFriendsOf(tx, other)));
  await friendships.deleteBlocksOf(tx, userId);
  await sessionFacts.deleteOwnedBy(tx, userId);
  await users.deleteById(tx, userId);
}
