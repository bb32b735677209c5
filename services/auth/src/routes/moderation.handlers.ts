import type { authApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import { toModerationAction, type AccountActions } from '../domain/account-actions';

type ModerationHandlers = Pick<Handlers<typeof authApi>, 'takeAction' | 'myActions'>;

/** A moderator's actions on accounts (the contract says moderators only) and the person's notices of them (issue 42). */
export function moderationHandlers(actions: AccountActions): ModerationHandlers {
  return {
    takeAction: async (request) => toModerationAction(await actions.take({ userId: request.auth.userId, roles: request.auth.roles }, request.body, request.id)),
    myActions: async (request) => (await actions.concerning(request.auth.userId)).map(toModerationAction),
  };
}
