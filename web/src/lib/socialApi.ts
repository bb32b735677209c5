import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Friendship, FriendshipRespondResponse, FriendshipStatus, OtherUser } from '@hoptrack/proto';
import { apiRequest } from './api';

/**
 * Query keys of the social graph (spec section 7). Like every key they are URL
 * parts the default query fn joins with '/', so a prefix addresses a family:
 * `['/api/users', id]` is the profile, `[..., 'stats']` and `[..., 'followers']`
 * hang below it. Only the search key is not a URL (it carries the query string),
 * so it has its own query fn.
 */
export const SEARCH_ROOT = ['/api/users/search'] as const;
export const USERS_ROOT = ['/api/users'] as const;
export const PROFILE_BY_NAME_ROOT = ['/api/users/profile'] as const;
export const FRIEND_REQUESTS_KEY = ['/api/me/friend-requests'] as const;
export const FRIENDS_KEY = ['/api/me/friends'] as const;
export const PINNED_KEY = ['/api/friends/pinned'] as const;
export const BLOCKED_KEY = ['/api/friends/blocked'] as const;
export const MY_STATS_KEY = ['/api/me/stats'] as const;

export const userSearchKey = (query: string) => [...SEARCH_ROOT, query] as const;
export const userKey = (id: string) => [...USERS_ROOT, id] as const;
export const userByNameKey = (username: string) => [...PROFILE_BY_NAME_ROOT, encodeURIComponent(username)] as const;
export const userStatsKey = (id: string) => [...userKey(id), 'stats'] as const;
export type FollowDirection = 'followers' | 'following';
export const followListKey = (id: string, direction: FollowDirection) => [...userKey(id), direction] as const;

/** What any change of a relationship can alter: search results, profiles, stats, follow lists. */
export const RELATIONSHIP_KEYS: readonly QueryKey[] = [SEARCH_ROOT, USERS_ROOT, PROFILE_BY_NAME_ROOT, MY_STATS_KEY];

/** Typed writes of the social-graph service; `id` is always the other user's id, except for `respond`. */
export const socialApi = {
  searchUsers: (query: string) => apiRequest<OtherUser[]>('GET', `/api/users/search?q=${encodeURIComponent(query)}`),
  sendRequest: (friendId: string) => apiRequest<Friendship>('POST', '/api/friendships', { friendId }),
  respond: (friendshipId: string, action: 'accept' | 'reject') =>
    apiRequest<FriendshipRespondResponse>('PATCH', `/api/friendships/${friendshipId}`, { action }),
  unfriend: (id: string) => apiRequest<null>('DELETE', `/api/friends/${id}`),
  block: (id: string, reason?: string) => apiRequest<null>('POST', `/api/friends/${id}/block`, reason ? { reason } : {}),
  unblock: (id: string) => apiRequest<null>('DELETE', `/api/friends/${id}/block`),
  mute: (id: string) => apiRequest<null>('POST', `/api/friends/${id}/mute`),
  unmute: (id: string) => apiRequest<null>('DELETE', `/api/friends/${id}/mute`),
  pin: (id: string) => apiRequest<null>('POST', `/api/friends/${id}/pin`, {}),
  /** Moves a pinned friend to a place in the pinned list (0 first): the same call with an order (spec section 7). */
  movePin: (id: string, order: number) => apiRequest<null>('POST', `/api/friends/${id}/pin`, { order }),
  unpin: (id: string) => apiRequest<null>('DELETE', `/api/friends/${id}/pin`),
};

type RelationshipPatch = Pick<OtherUser, 'friendshipStatus' | 'friendshipId'>;

/**
 * Writes a relationship change into every cached copy of that user (search
 * results, the profile by id and by username) so buttons flip at once; the
 * invalidation that follows brings the server's word.
 */
export function patchCachedUser(queryClient: QueryClient, userId: string, patch: RelationshipPatch): void {
  const apply = (user: OtherUser): OtherUser => (user.id === userId ? { ...user, ...patch } : user);
  queryClient.setQueriesData<OtherUser[]>({ queryKey: SEARCH_ROOT }, (list) => list?.map(apply));
  queryClient.setQueriesData<OtherUser>({ queryKey: PROFILE_BY_NAME_ROOT }, (user) => user && apply(user));
  queryClient.setQueryData<OtherUser>(userKey(userId), (user) => user && apply(user));
}

/** How a new friendship row looks from the sender's side. */
export function statusAfterRequest(friendship: Friendship): FriendshipStatus {
  return friendship.status === 'accepted' ? 'accepted' : 'sent';
}
