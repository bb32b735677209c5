import {
  challenge,
  challengeDetail,
  challengesQuery,
  completedChallenge,
  completedChallengesQuery,
  idParams,
  joinChallengeBody,
  myChallengesQuery,
} from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Challenges } from '../domain/challenges';

/** Today's challenges, one challenge's page, joining, and the lists of completed ones (issue 23). */
export function challengesRoutes(app: ServiceApp, challenges: Challenges, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/challenges', { ...guarded, schema: { querystring: challengesQuery, response: { 200: z.array(challenge) } } }, async (request) =>
    challenges.today(authOf(request).userId, request.query.timeZone),
  );
  app.get('/api/challenges/:id', { ...guarded, schema: { params: idParams, querystring: challengesQuery, response: { 200: challengeDetail } } }, async (request) =>
    challenges.detail(authOf(request).userId, request.params.id, request.query.timeZone),
  );
  app.post('/api/challenges/:id/join', { ...guarded, schema: { params: idParams, body: joinChallengeBody, response: { 200: challenge } } }, async (request) =>
    challenges.join(authOf(request).userId, request.params.id, request.body.timeZone, request.id),
  );
  app.get('/api/me/challenges', { ...guarded, schema: { querystring: myChallengesQuery, response: { 200: z.array(challenge) } } }, async (request) =>
    challenges.mine(authOf(request).userId, request.query),
  );
  app.get(
    '/api/users/:id/challenges',
    { ...guarded, schema: { params: idParams, querystring: completedChallengesQuery, response: { 200: z.array(completedChallenge) } } },
    async (request) => challenges.completedOf(authOf(request).userId, request.params.id, request.query),
  );
}
