import { followList, listQuery, myStats, otherUser, userIdParams, usernameParams, userSearchQuery, userStats } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { SocialGraph } from '../domain/social-graph';

/** /api/users/*: search, public profiles, stats, followers and following; /api/me/stats. */
export function usersRoutes(app: ServiceApp, graph: SocialGraph, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/users/search', { ...guarded, schema: { querystring: userSearchQuery, response: { 200: z.array(otherUser) } } }, async (request) => {
    const { q, limit, offset } = request.query;
    return graph.search(authOf(request).userId, q, { limit, offset });
  });

  app.get('/api/users/profile/:username', { ...guarded, schema: { params: usernameParams, response: { 200: otherUser } } }, async (request) =>
    graph.profileByUsername(authOf(request).userId, request.params.username),
  );

  app.get('/api/users/:id', { ...guarded, schema: { params: userIdParams, response: { 200: otherUser } } }, async (request) =>
    graph.profileById(authOf(request).userId, request.params.id),
  );

  app.get('/api/users/:id/stats', { ...guarded, schema: { params: userIdParams, response: { 200: userStats } } }, async (request) =>
    graph.stats(authOf(request).userId, request.params.id),
  );

  for (const kind of ['followers', 'following'] as const) {
    app.get(
      `/api/users/:id/${kind}`,
      { ...guarded, schema: { params: userIdParams, querystring: listQuery, response: { 200: followList } } },
      async (request) => graph[kind](authOf(request).userId, request.params.id, request.query),
    );
  }

  app.get('/api/me/stats', { ...guarded, schema: { response: { 200: myStats } } }, async (request) => graph.myStats(authOf(request).userId));
}
