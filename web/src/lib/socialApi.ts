import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Friendship, FriendshipStatus, OtherUser } from '@hoptrack/proto';
import { api } from '../api';

/**
 * Query keys of the social graph (spec section 7): the contracts' own
 * (`api.socialGraph.<name>.key(...)`). A contract's key without arguments
 * addresses every cached read of it: `userKey(id)` is the profile,
 * `USER_READS` every read about a person by id (profile, stats, follow
 * lists, their sessions and challenges).
 */
export const SEARCH_ROOT = api.socialGraph.search.key();
export const PROFILE_BY_NAME_ROOT = api.socialGraph.profileByUsername.key();
export const FRIEND_REQUESTS_KEY = api.socialGraph.myRequests.key();
export const SENT_REQUESTS_KEY = api.socialGraph.sentRequests.key();
export const FRIENDS_KEY = api.socialGraph.myFriends.key();
export const PINNED_KEY = api.socialGraph.pinned.key();
export const BLOCKED_KEY = api.socialGraph.blocked.key();
export const MY_STATS_KEY = api.socialGraph.myStats.key();
export const SUGGESTIONS_KEY = api.socialGraph.suggestions.key();

export const userSearchKey = (query: string) => api.socialGraph.search.key({ query: { q: query } });
export const userKey = (id: string) => api.socialGraph.profile.key({ params: { id } });
export const userByNameKey = (username: string) => api.socialGraph.profileByUsername.key({ params: { username } });
export const userStatsKey = (id: string) => api.socialGraph.stats.key({ params: { id } });
export type FollowDirection = 'followers' | 'following';
export const followListKey = (id: string, direction: FollowDirection) => api.socialGraph[direction].key({ params: { id } });

/** Every read about a person by id: their profile, stats, follow lists, sessions and completed challenges. */
export const USER_READS: readonly QueryKey[] = [
  api.socialGraph.profile.key(),
  api.socialGraph.stats.key(),
  api.socialGraph.followers.key(),
  api.socialGraph.following.key(),
  api.sessions.ofUser.key(),
  api.challenges.completedOf.key(),
];

/** What any change of a relationship can alter: search results, profiles, stats, follow lists. */
export const RELATIONSHIP_KEYS: readonly QueryKey[] = [SEARCH_ROOT, ...USER_READS, PROFILE_BY_NAME_ROOT, MY_STATS_KEY, SENT_REQUESTS_KEY];

/** Every social read (a live `friends` event: a request or a friendship changed elsewhere). */
export function refreshFriendships(queryClient: QueryClient): Promise<unknown> {
  const keys = [...RELATIONSHIP_KEYS, FRIEND_REQUESTS_KEY, FRIENDS_KEY, PINNED_KEY];
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** A person's profile by id, as their privacy allows. */
export const userQuery = (id: string) => queryOptions({ queryKey: userKey(id), queryFn: () => api.socialGraph.profile({ params: { id } }) });
/** A person's profile by username, as their privacy allows. */
export const userByNameQuery = (username: string) =>
  queryOptions({ queryKey: userByNameKey(username), queryFn: () => api.socialGraph.profileByUsername({ params: { username } }) });
export const userStatsQuery = (id: string) => queryOptions({ queryKey: userStatsKey(id), queryFn: () => api.socialGraph.stats({ params: { id } }) });
export const followListQuery = (id: string, direction: FollowDirection) =>
  queryOptions({ queryKey: followListKey(id, direction), queryFn: () => api.socialGraph[direction]({ params: { id } }) });
export const friendRequestsQuery = () => queryOptions({ queryKey: FRIEND_REQUESTS_KEY, queryFn: () => api.socialGraph.myRequests() });
export const sentRequestsQuery = () => queryOptions({ queryKey: SENT_REQUESTS_KEY, queryFn: () => api.socialGraph.sentRequests() });
export const friendsQuery = () => queryOptions({ queryKey: FRIENDS_KEY, queryFn: () => api.socialGraph.myFriends() });
export const pinnedQuery = () => queryOptions({ queryKey: PINNED_KEY, queryFn: () => api.socialGraph.pinned() });
export const blockedQuery = () => queryOptions({ queryKey: BLOCKED_KEY, queryFn: () => api.socialGraph.blocked() });
/** A few people to follow (an empty feed offers them). */
export const suggestionsQuery = () => queryOptions({ queryKey: SUGGESTIONS_KEY, queryFn: () => api.socialGraph.suggestions() });
export const myStatsQuery = () => queryOptions({ queryKey: MY_STATS_KEY, queryFn: () => api.socialGraph.myStats() });

/** Typed writes of the social-graph service; `id` is always the other user's id, except for `respond` and `withdraw`. */
export const socialApi = {
  searchUsers: (query: string) => api.socialGraph.search({ query: { q: query } }),
  sendRequest: (friendId: string) => api.socialGraph.requestFriendship({ body: { friendId } }),
  respond: (friendshipId: string, action: 'accept' | 'reject') => api.socialGraph.respond({ params: { id: friendshipId }, body: { action } }),
  /** The sender takes a pending request back (`friendshipId` is the request's id). */
  withdraw: (friendshipId: string) => api.socialGraph.withdraw({ params: { id: friendshipId } }),
  unfriend: (id: string) => api.socialGraph.unfriend({ params: { id } }),
  block: (id: string, reason?: string) => api.socialGraph.block({ params: { id }, body: reason ? { reason } : {} }),
  unblock: (id: string) => api.socialGraph.unblock({ params: { id } }),
  mute: (id: string) => api.socialGraph.mute({ params: { id } }),
  unmute: (id: string) => api.socialGraph.unmute({ params: { id } }),
  pin: (id: string) => api.socialGraph.pin({ params: { id }, body: {} }),
  /** Moves a pinned friend to a place in the pinned list (0 first): the same call with an order (spec section 7). */
  movePin: (id: string, order: number) => api.socialGraph.pin({ params: { id }, body: { order } }),
  unpin: (id: string) => api.socialGraph.unpin({ params: { id } }),
};

type RelationshipPatch = Pick<OtherUser, 'friendshipStatus' | 'friendshipId'>;

/**
 * Writes a relationship change into every cached copy of that user (search
 * results, suggestions, the profile by id and by username) so buttons flip at once; the
 * invalidation that follows brings the server's word.
 */
export function patchCachedUser(queryClient: QueryClient, userId: string, patch: RelationshipPatch): void {
  const apply = (user: OtherUser): OtherUser => (user.id === userId ? { ...user, ...patch } : user);
  queryClient.setQueriesData<OtherUser[]>({ queryKey: SEARCH_ROOT }, (list) => list?.map(apply));
  queryClient.setQueryData<OtherUser[]>(SUGGESTIONS_KEY, (list) => list?.map(apply));
  queryClient.setQueriesData<OtherUser>({ queryKey: PROFILE_BY_NAME_ROOT }, (user) => user && apply(user));
  queryClient.setQueryData<OtherUser>(userKey(userId), (user) => user && apply(user));
}

/** How a new friendship row looks from the sender's side. */
export function statusAfterRequest(friendship: Friendship): FriendshipStatus {
  return friendship.status === 'accepted' ? 'accepted' : 'sent';
}
