import { z } from 'zod';
import { FRIENDSHIP_STATUSES, SEARCH_QUERY_MAX } from './constants';
import { pageLimit, pageOffset, uuid } from './common';
import { definePush, type DeclaredPush } from './live';

/**
 * Social graph contracts (spec sections 3, 5, 7). Semantics (docs/decisions.md):
 * friends follow each other; a pending request makes its sender a follower of
 * the recipient; blocks hide both users from each other everywhere.
 */
/** The relationship as the viewer sees it: sent = I asked them, pending = they asked me. */
export const friendshipStatus = z.enum(FRIENDSHIP_STATUSES);
export type FriendshipStatus = z.infer<typeof friendshipStatus>;

export const userIdParams = z.object({ id: uuid });
export const usernameParams = z.object({
  username: z.string().min(1).max(30, { error: 'Username must be at most 30 characters' }),
});

export const pagination = { limit: pageLimit(20, 50), offset: pageOffset };

export const userSearchQuery = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, { error: 'q is required' })
    .max(SEARCH_QUERY_MAX, { error: `Search query must be at most ${SEARCH_QUERY_MAX} characters` }),
  ...pagination,
});
export type UserSearchQuery = z.infer<typeof userSearchQuery>;

export const listQuery = z.object(pagination);

/** `GET /api/users/suggestions?limit=`: a few people to follow (issue 40). */
export const suggestionsQuery = z.object({ limit: pageLimit(5, 20) });

/** The small card of a user inside lists (requests, friends, followers, blocked). */
export const userCard = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  avatar: z.string().nullable(),
  bio: z.string().nullable(),
  isProfilePrivate: z.boolean(),
});
export type UserCard = z.infer<typeof userCard>;

/**
 * Another user as the viewer may see them. Fields a private profile withholds
 * from non-friends (bio) are null. The e-mail address is null for everyone
 * but the person and, if their "Show my e-mail to friends" switch is on,
 * their friends (issue 40).
 */
export const otherUser = userCard.extend({
  email: z.string().nullable(),
  createdAt: z.string(),
  joinDate: z.string(),
  allowDirectMessages: z.boolean(),
  showOnlineStatus: z.boolean(),
  friendshipStatus,
  /** The friendship row behind the status (to accept or reject a pending request). */
  friendshipId: uuid.nullable(),
  totalSessions: z.number().int(),
  mutualFriends: z.number().int(),
  /** False when a private profile hides its details from this viewer. */
  canViewDetails: z.boolean(),
});
export type OtherUser = z.infer<typeof otherUser>;

export const friendRequest = z.object({
  id: uuid,
  user: userCard,
  createdAt: z.string(),
});
export type FriendRequest = z.infer<typeof friendRequest>;

export const friend = userCard.extend({
  friendshipId: uuid,
  isPinned: z.boolean(),
  isMuted: z.boolean(),
  pinnedOrder: z.number().int().nullable(),
  friendsSince: z.string(),
});
export type Friend = z.infer<typeof friend>;

export const blockedUser = userCard.extend({
  reason: z.string().nullable(),
  blockedAt: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUser>;

export const followEntry = userCard.extend({ friendshipStatus });
export type FollowEntry = z.infer<typeof followEntry>;

export const followList = z.object({
  users: z.array(followEntry),
  total: z.number().int(),
  followersCount: z.number().int(),
  followingCount: z.number().int(),
});
export type FollowList = z.infer<typeof followList>;

export const userStats = z.object({
  totalSessions: z.number().int(),
  totalHours: z.number(),
  followersCount: z.number().int(),
  followingCount: z.number().int(),
});
export type UserStats = z.infer<typeof userStats>;

export const myStats = userStats.extend({
  weeklyTotal: z.number().int(),
  friendsCount: z.number().int(),
});
export type MyStats = z.infer<typeof myStats>;

export const friendshipCreateRequest = z.object({ friendId: uuid });
export const friendshipRespondRequest = z.object({
  action: z.enum(['accept', 'reject'], { error: "action must be 'accept' or 'reject'" }),
});
export const friendshipRespondResponse = z.object({ id: uuid, status: z.enum(['accepted', 'rejected']) });
export type FriendshipRespondResponse = z.infer<typeof friendshipRespondResponse>;
export const friendship = z.object({
  id: uuid,
  userId: uuid,
  friendId: uuid,
  status: z.enum(['pending', 'accepted']),
  createdAt: z.string(),
});
export type Friendship = z.infer<typeof friendship>;

export const blockRequest = z.object({
  reason: z.string().trim().max(200, { error: 'Reason must be at most 200 characters' }).optional(),
});
/**
 * POST /api/friends/{id}/pin {order}: the place in the pinned list, 0 first.
 * Each check names its own reason (a schema-wide `error` would answer every
 * failure with the first one's text). No upper bound here: a place past the
 * end means last, and the spec's client sends the count of its pins, so a
 * sixth pin arrives as {order: 5} and must meet the service's limit text.
 */
export const pinRequest = z.object({
  order: z
    .number({ error: 'order must be a number' })
    .int({ error: 'order must be a whole number' })
    .min(0, { error: 'order must be 0 or more' })
    .optional(),
});

/**
 * The graph as social-graph holds it, one page of one kind of edge at a time
 * (issue 38, item 8): what a read model of the graph rebuilds from when its
 * consumer missed events (away longer than the SOCIAL stream keeps them).
 * Asked over NATS request/reply, not HTTP: every service with a graph read
 * model is on the bus already. `follows`: a pending request (false) or a
 * friendship (true, one edge each way); `blocks`: blocker → blocked; `mutes`:
 * who muted → whom. Pages are ordered by the pair; `after` is the last pair
 * of the previous page (`<from>/<to>`).
 */
export const GRAPH_EDGE_KINDS = ['follows', 'blocks', 'mutes'] as const;
export type GraphEdgeKind = (typeof GRAPH_EDGE_KINDS)[number];
export const GRAPH_SNAPSHOT_PAGE_MAX = 5000;
export const graphSnapshotRequest = z.object({
  kind: z.enum(GRAPH_EDGE_KINDS),
  after: z.string().regex(/^[0-9a-f-]{36}\/[0-9a-f-]{36}$/).nullable(),
  limit: z.number().int().min(1).max(GRAPH_SNAPSHOT_PAGE_MAX),
});
export type GraphSnapshotRequest = z.infer<typeof graphSnapshotRequest>;
/** [from, to, is a friendship (follows only; false otherwise)]; `next` is null on the last page. */
export const graphSnapshotPage = z.object({ edges: z.array(z.tuple([uuid, uuid, z.boolean()])), next: z.string().nullable() });
export type GraphSnapshotPage = z.infer<typeof graphSnapshotPage>;

// ---- Live delivery (issue 40, item 8) ----

/** What happened to a friendship or a request between the two people of a `friends` push. */
export const FRIENDSHIP_CHANGES = ['requested', 'accepted', 'rejected', 'removed'] as const;

/**
 * `event: friends` — a request was sent, accepted, rejected or withdrawn, or a
 * friendship ended, between the viewer and `userIds`' other person: the
 * friends screens, search and profiles refetch, and a new friendship brings
 * the feed and presence (a new friend's online dot shows on both sides
 * without a reload; their earlier sessions are backfilled into the feed).
 */
export const liveFriendsEvent = z.object({ change: z.enum(FRIENDSHIP_CHANGES), userIds: z.array(uuid) });
export type LiveFriendsEvent = z.infer<typeof liveFriendsEvent>;

const friendsPush = <T extends 'social.friendship.requested.v1' | 'social.friendship.accepted.v1' | 'social.friendship.rejected.v1'>(
  event: T,
  change: LiveFriendsEvent['change'],
): DeclaredPush =>
  definePush({
    stream: 'SOCIAL',
    event,
    name: 'friends',
    to: (data) => [data.requesterId, data.recipientId],
    payload: (data): LiveFriendsEvent => ({ change, userIds: [data.requesterId, data.recipientId] }),
  });

/** The social graph's pushes: a request's life and a friendship's end, to both people's streams (every tab of the one who acted too). */
export const socialLivePushes: DeclaredPush[] = [
  friendsPush('social.friendship.requested.v1', 'requested'),
  friendsPush('social.friendship.accepted.v1', 'accepted'),
  friendsPush('social.friendship.rejected.v1', 'rejected'),
  definePush({
    stream: 'SOCIAL',
    event: 'social.friendship.removed.v1',
    name: 'friends',
    to: (data) => [data.userId, data.friendId],
    payload: (data): LiveFriendsEvent => ({ change: 'removed', userIds: [data.userId, data.friendId] }),
  }),
];
