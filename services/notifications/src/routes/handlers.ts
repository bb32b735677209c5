import { INVALID_UNSUBSCRIBE_MESSAGE, UNSUBSCRIBED_MESSAGE, type notificationsApi } from '@hoptrack/proto';
import { badRequest, type Handlers } from '@hoptrack/runtime';
import type { Notifications } from '../domain/notifications';
import type { UnsubscribeTokens } from '../mail/unsubscribe';

/** The notifications service's handlers, one per contract of `notificationsApi` (proto/src/contracts/notifications.ts). */
export function notificationsHandlers(notifications: Notifications, tokens: UnsubscribeTokens): Handlers<typeof notificationsApi> {
  return {
    // A person's own inbox (issue 22): the list, the bell's count, marking read, and the per-kind settings.
    list: async (request) => {
      const { cursor, limit, unread, kind } = request.query;
      return notifications.list(request.auth.userId, cursor, limit, { unread, kinds: kind });
    },
    unreadCount: async (request) => ({ count: await notifications.unreadCount(request.auth.userId) }),
    markRead: async (request) => ({ updated: await notifications.markRead(request.auth.userId, request.body, request.id) }),
    markUnread: async (request) => ({ updated: await notifications.markUnread(request.auth.userId, request.params.id, request.id) }),
    settings: async (request) => notifications.settings(request.auth.userId),
    updateSettings: async (request) => notifications.updateSettings(request.auth.userId, request.body, request.id),

    /**
     * The link at the foot of every notification mail: no sign-in (a person
     * reading mail on another device must be able to stop it), so the token is
     * the proof. Public on purpose (infra/security/revocation.test.ts lists it).
     */
    unsubscribe: async (request) => {
      const userId = tokens.verify(request.body.token);
      if (!userId) throw badRequest(INVALID_UNSUBSCRIBE_MESSAGE, 'token');
      await notifications.stopEmail(userId, request.id);
      return { message: UNSUBSCRIBED_MESSAGE };
    },
  };
}
