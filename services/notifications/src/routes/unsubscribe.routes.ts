import { INVALID_UNSUBSCRIBE_MESSAGE, messageResponse, UNSUBSCRIBED_MESSAGE, unsubscribeBody } from '@hoptrack/proto';
import { badRequest, type ServiceApp } from '@hoptrack/runtime';
import type { Notifications } from '../domain/notifications';
import type { UnsubscribeTokens } from '../mail/unsubscribe';

/**
 * The link at the foot of every notification mail: no sign-in (a person
 * reading mail on another device must be able to stop it), so the token is
 * the proof. Public on purpose (infra/security/revocation.test.ts lists it).
 */
export function unsubscribeRoutes(app: ServiceApp, notifications: Notifications, tokens: UnsubscribeTokens): void {
  app.post('/api/notifications/unsubscribe', { schema: { body: unsubscribeBody, response: { 200: messageResponse } } }, async (request) => {
    const userId = tokens.verify(request.body.token);
    if (!userId) throw badRequest(INVALID_UNSUBSCRIBE_MESSAGE, 'token');
    await notifications.stopEmail(userId, request.id);
    return { message: UNSUBSCRIBED_MESSAGE };
  });
}
