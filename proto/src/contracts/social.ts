import { z } from 'zod';
import { idParams } from '../common';
import {
  blockedUser,
  blockRequest,
  followList,
  friend,
  friendRequest,
  friendship,
  friendshipCreateRequest,
  friendshipRespondRequest,
  friendshipRespondResponse,
  listQuery,
  myStats,
  otherUser,
  pinRequest,
  userIdParams,
  usernameParams,
  suggestionsQuery,
  userSearchQuery,
  userStats,
} from '../social';
import { defineRoutes } from './define';

/**
 * People and the relationships between them: search, profiles and stats
 * (/api/users/*, /api/me/stats), friend requests (/api/friendships) and the
 * viewer's own friends, pins, mutes and blocks (/api/friends, /api/me/...).
 * The changes to one relationship answer 204; their :id is the other user's id.
 */
export const socialGraphApi = defineRoutes('social-graph', {
  search: {
    method: 'GET',
    path: '/api/users/search',
    summary: 'Search people by name',
    query: userSearchQuery,
    responses: { 200: z.array(otherUser) },
  },
  suggestions: {
    method: 'GET',
    path: '/api/users/suggestions',
    summary: 'People the viewer might follow: friends of friends, then the most active public profiles',
    query: suggestionsQuery,
    responses: { 200: z.array(otherUser) },
  },
  profileByUsername: {
    method: 'GET',
    path: '/api/users/profile/:username',
    summary: "A person's profile by username, as their privacy allows",
    params: usernameParams,
    responses: { 200: otherUser },
  },
  profile: {
    method: 'GET',
    path: '/api/users/:id',
    summary: "A person's profile by id, as their privacy allows",
    params: userIdParams,
    responses: { 200: otherUser },
  },
  stats: {
    method: 'GET',
    path: '/api/users/:id/stats',
    summary: "A person's session and follower counts",
    params: userIdParams,
    responses: { 200: userStats },
  },
  followers: {
    method: 'GET',
    path: '/api/users/:id/followers',
    summary: "A person's followers, a page at a time",
    params: userIdParams,
    query: listQuery,
    responses: { 200: followList },
  },
  following: {
    method: 'GET',
    path: '/api/users/:id/following',
    summary: 'The people a person follows, a page at a time',
    params: userIdParams,
    query: listQuery,
    responses: { 200: followList },
  },
  myStats: {
    method: 'GET',
    path: '/api/me/stats',
    summary: "The viewer's own stats, with the week's total and friend count",
    responses: { 200: myStats },
  },
  requestFriendship: {
    method: 'POST',
    path: '/api/friendships',
    summary: 'Send a friend request',
    body: friendshipCreateRequest,
    responses: { 201: friendship },
  },
  respond: {
    method: 'PATCH',
    path: '/api/friendships/:id',
    summary: 'Accept or reject a friend request sent to the viewer',
    params: idParams,
    body: friendshipRespondRequest,
    responses: { 200: friendshipRespondResponse },
  },
  withdraw: {
    method: 'DELETE',
    path: '/api/friendships/:id',
    summary: 'Withdraw a pending friend request the viewer sent (only its sender)',
    params: idParams,
  },
  friends: {
    method: 'GET',
    path: '/api/friends',
    summary: "The viewer's friends",
    responses: { 200: z.array(friend) },
  },
  myFriends: {
    method: 'GET',
    path: '/api/me/friends',
    summary: "The viewer's friends (the same list as /api/friends)",
    responses: { 200: z.array(friend) },
  },
  pinned: {
    method: 'GET',
    path: '/api/friends/pinned',
    summary: "The viewer's pinned friends, in their order",
    responses: { 200: z.array(friend) },
  },
  requests: {
    method: 'GET',
    path: '/api/friends/requests',
    summary: 'Friend requests sent to the viewer',
    responses: { 200: z.array(friendRequest) },
  },
  myRequests: {
    method: 'GET',
    path: '/api/me/friend-requests',
    summary: 'Friend requests sent to the viewer (the same list as /api/friends/requests)',
    responses: { 200: z.array(friendRequest) },
  },
  sentRequests: {
    method: 'GET',
    path: '/api/friends/requests/sent',
    summary: 'Pending friend requests the viewer sent, newest first',
    responses: { 200: z.array(friendRequest) },
  },
  blocked: {
    method: 'GET',
    path: '/api/friends/blocked',
    summary: 'The people the viewer has blocked',
    responses: { 200: z.array(blockedUser) },
  },
  unfriend: {
    method: 'DELETE',
    path: '/api/friends/:id',
    summary: 'End a friendship',
    params: userIdParams,
  },
  block: {
    method: 'POST',
    path: '/api/friends/:id/block',
    summary: 'Block a person, with an optional reason',
    params: userIdParams,
    body: blockRequest.nullish(),
  },
  unblock: {
    method: 'DELETE',
    path: '/api/friends/:id/block',
    summary: 'Unblock a person',
    params: userIdParams,
  },
  mute: {
    method: 'POST',
    path: '/api/friends/:id/mute',
    summary: "Mute a friend's activity",
    params: userIdParams,
  },
  unmute: {
    method: 'DELETE',
    path: '/api/friends/:id/mute',
    summary: "Unmute a friend's activity",
    params: userIdParams,
  },
  pin: {
    method: 'POST',
    path: '/api/friends/:id/pin',
    summary: 'Pin a friend, optionally at a place in the pinned list',
    params: userIdParams,
    body: pinRequest.nullish(),
  },
  unpin: {
    method: 'DELETE',
    path: '/api/friends/:id/pin',
    summary: 'Unpin a friend',
    params: userIdParams,
  },
});
