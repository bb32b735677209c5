import type { challengesApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { Challenges } from '../domain/challenges';
import type { Invitations } from '../domain/invitations';

/** The challenges service's handlers, one per contract of `challengesApi` (proto/src/contracts/challenges.ts). */
export function challengesHandlers(challenges: Challenges, invitations: Invitations): Handlers<typeof challengesApi> {
  return {
    today: async (request) => challenges.today(request.auth.userId, request.query.timeZone),
    detail: async (request) => challenges.detail(request.auth.userId, request.params.id, request.query.timeZone),
    join: async (request) => challenges.join(request.auth.userId, request.params.id, request.body.timeZone, request.id),
    mine: async (request) => challenges.mine(request.auth.userId, request.query),
    completedOf: async (request) => challenges.completedOf(request.auth.userId, request.params.id, request.query),
    invite: async (request) => invitations.invite(request.auth.userId, request.params.id, request.body.friendId, request.query.timeZone, request.id),
    invitations: async (request) => invitations.list(request.auth.userId),
    answerInvitation: async (request) => invitations.answer(request.auth.userId, request.params.id, request.body, request.id),
  };
}
