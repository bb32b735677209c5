import type { ExportPart } from '@hoptrack/proto';
import type { Db, User } from '../db';
import { friendshipsRepository as friendships } from '../repositories/friendships.repository';
import { graphRepository as graph } from '../repositories/graph.repository';
import { usersRepository } from '../repositories/users.repository';
import { pinnedInOrder } from './social-graph';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Someone in the person's graph, as the export names them: id, username and display name only. */
export interface ExportedPerson {
  id: string;
  username: string | null;
  displayName: string | null;
}

/**
 * The social graph's part of a data export (issue 24): the person's friends
 * (since when, pinned, muted), the requests they sent and received that are
 * still pending, the blocks they made, their mutes and pins in order, and
 * their stats as /api/me/stats counts them. Others appear by id, username and
 * display name only; blocks made by others against the person stay theirs.
 * A block ends the pair's friendship and requests, so of the people in a
 * block with the person only those they blocked appear, in their blocks,
 * named as the app's blocked list names them (the export's block rule,
 * exportPeople, has nothing else to leave out here).
 */
export async function exportGraph(db: Db, userId: string, now: Date = new Date()): Promise<Omit<ExportPart, 'service'>> {
  const [mine, received, blocks] = await Promise.all([
    friendships.ownRowsOldestFirst(db, userId),
    friendships.incomingRequestsOldestFirst(db, userId),
    friendships.blocksMadeOldestFirst(db, userId),
  ]);
  const others = [...mine.map((r) => r.friendId), ...received.map((r) => r.userId), ...blocks.map((b) => b.blockedId)];
  const users = new Map((await usersRepository.findMany(db, [...new Set(others)])).map((u) => [u.id, u]));
  const person = (id: string): ExportedPerson => named(id, users.get(id));

  const friends = mine.filter((r) => r.status === 'accepted');
  const [counts, totals, weeklyTotal] = await Promise.all([
    graph.followCounts(db, userId, userId),
    graph.sessionTotals(db, [userId]),
    graph.beersSince(db, userId, new Date(now.getTime() - WEEK_MS)),
  ]);
  const total = totals.get(userId);

  return {
    data: {
      friends: friends.map((r) => ({
        ...person(r.friendId),
        friendsSince: r.createdAt.toISOString(),
        isPinned: r.isPinned,
        pinnedOrder: r.isPinned ? r.pinnedOrder : null,
        isMuted: r.isMuted,
      })),
      friendRequests: {
        sent: mine.filter((r) => r.status === 'pending').map((r) => ({ id: r.id, to: person(r.friendId), sentAt: r.createdAt.toISOString() })),
        received: received.map((r) => ({ id: r.id, from: person(r.userId), receivedAt: r.createdAt.toISOString() })),
      },
      blocks: blocks.map((b) => ({ user: person(b.blockedId), reason: b.reason, blockedAt: b.createdAt.toISOString() })),
      mutes: friends.filter((r) => r.isMuted).map((r) => person(r.friendId)),
      pins: pinnedInOrder(friends).map((r, place) => ({ place, ...person(r.friendId) })),
      stats: {
        friendsCount: counts.friends,
        followersCount: counts.followers,
        followingCount: counts.following,
        totalSessions: total?.sessions ?? 0,
        totalHours: Math.round(((total?.minutes ?? 0) / 60) * 10) / 10,
        weeklyTotal,
      },
    },
    files: [],
  };
}

function named(id: string, user: User | undefined): ExportedPerson {
  return { id, username: user?.username ?? null, displayName: user?.displayName ?? null };
}
