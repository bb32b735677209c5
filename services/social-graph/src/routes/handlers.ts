import type { socialGraphApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { SocialGraph } from '../domain/social-graph';

/** The social graph's handlers, one per contract of `socialGraphApi` (proto/src/contracts/social.ts). */
export function socialGraphHandlers(graph: SocialGraph): Handlers<typeof socialGraphApi> {
  return {
    // /api/users/*: search, public profiles, stats, followers and following; /api/me/stats.
    search: async (request) => {
      const { q, limit, offset } = request.query;
      return graph.search(request.auth.userId, q, { limit, offset });
    },
    suggestions: async (request) => graph.suggestions(request.auth.userId, request.query.limit),
    profileByUsername: async (request) => graph.profileByUsername(request.auth.userId, request.params.username),
    profile: async (request) => graph.profileById(request.auth.userId, request.params.id),
    stats: async (request) => graph.stats(request.auth.userId, request.params.id),
    followers: async (request) => graph.followers(request.auth.userId, request.params.id, request.query),
    following: async (request) => graph.following(request.auth.userId, request.params.id, request.query),
    myStats: async (request) => graph.myStats(request.auth.userId),

    // Friend requests (/api/friendships) and the viewer's own friends, pins, mutes and blocks (/api/friends, /api/me/...).
    requestFriendship: async (request) => graph.requestFriendship(request.auth.userId, request.body.friendId, request.id),
    respond: async (request) => graph.respond(request.auth.userId, request.params.id, request.body.action, request.id),
    withdraw: async (request) => graph.withdraw(request.auth.userId, request.params.id, request.id),
    friends: async (request) => graph.friends(request.auth.userId),
    myFriends: async (request) => graph.friends(request.auth.userId),
    pinned: async (request) => graph.friends(request.auth.userId, true),
    requests: async (request) => graph.incomingRequests(request.auth.userId),
    myRequests: async (request) => graph.incomingRequests(request.auth.userId),
    sentRequests: async (request) => graph.sentRequests(request.auth.userId),
    blocked: async (request) => graph.blocked(request.auth.userId),

    // Changes to one relationship answer 204 (nothing returned); :id is the other user's id.
    unfriend: async (request) => graph.unfriend(request.auth.userId, request.params.id, request.id),
    block: async (request) => graph.block(request.auth.userId, request.params.id, request.body?.reason, request.id),
    unblock: async (request) => graph.unblock(request.auth.userId, request.params.id, request.id),
    mute: async (request) => graph.setMuted(request.auth.userId, request.params.id, true, request.id),
    unmute: async (request) => graph.setMuted(request.auth.userId, request.params.id, false, request.id),
    pin: async (request) => graph.pin(request.auth.userId, request.params.id, request.body?.order, request.id),
    unpin: async (request) => graph.unpin(request.auth.userId, request.params.id, request.id),
  };
}
