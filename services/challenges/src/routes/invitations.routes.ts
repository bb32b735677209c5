import { answerInvitationBody, challengeInvitation, challengeInvitations, challengesQuery, idParams, inviteBody } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { Invitations } from '../domain/invitations';

/** Inviting friends to a challenge, one's invitations both ways, and answering (issue 23). */
export function invitationsRoutes(app: ServiceApp, invitations: Invitations, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.post(
    '/api/challenges/:id/invitations',
    { ...guarded, schema: { params: idParams, querystring: challengesQuery, body: inviteBody, response: { 201: challengeInvitation } } },
    async (request, reply) => {
      reply.code(201);
      return invitations.invite(authOf(request).userId, request.params.id, request.body.friendId, request.query.timeZone, request.id);
    },
  );
  app.get('/api/challenge-invitations', { ...guarded, schema: { response: { 200: challengeInvitations } } }, async (request) =>
    invitations.list(authOf(request).userId),
  );
  app.patch(
    '/api/challenge-invitations/:id',
    { ...guarded, schema: { params: idParams, body: answerInvitationBody, response: { 200: challengeInvitation } } },
    async (request) => invitations.answer(authOf(request).userId, request.params.id, request.body, request.id),
  );
}
