import { currentUser, privacyUpdateRequest, profilePictureUpdateRequest, profileUpdateRequest } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { Accounts } from '../domain/accounts';
import { toCurrentUser } from '../domain/user-views';

/** The signed-in user's own account: /api/me, its profile picture, and /api/privacy. */
export function meRoutes(app: ServiceApp, accounts: Accounts, authenticate: Authenticate): void {
  const reply = { response: { 200: currentUser } };

  app.get('/api/me', { preHandler: authenticate, schema: reply }, async (request) =>
    toCurrentUser(await accounts.me(authOf(request).userId)),
  );

  app.patch('/api/me', { preHandler: authenticate, schema: { body: profileUpdateRequest, ...reply } }, async (request) =>
    toCurrentUser(await accounts.updateProfile(authOf(request).userId, request.body, request.id)),
  );

  app.put(
    '/api/me/profile-picture',
    { preHandler: authenticate, schema: { body: profilePictureUpdateRequest, ...reply } },
    async (request) =>
      toCurrentUser(await accounts.setProfilePicture(authOf(request).userId, request.body.profilePictureUrl, request.id)),
  );

  app.put('/api/privacy', { preHandler: authenticate, schema: { body: privacyUpdateRequest, ...reply } }, async (request) =>
    toCurrentUser(await accounts.updatePrivacy(authOf(request).userId, request.body, request.id)),
  );
}
