import { currentUser, privacyUpdateRequest, profilePictureUpdateRequest, profileUpdateRequest } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp, type UploadTokens } from '@hoptrack/runtime';
import type { Accounts } from '../domain/accounts';
import { pictureToKeep } from '../domain/profile-pictures';
import { toCurrentUser } from '../domain/user-views';

/** The signed-in user's own account: /api/me, its profile picture, and /api/privacy. */
export function meRoutes(app: ServiceApp, accounts: Accounts, authenticate: Authenticate, uploads: UploadTokens): void {
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
    async (request) => {
      const { userId } = authOf(request);
      const picture = pictureToKeep(uploads, userId, request.body.profilePictureUrl);
      return toCurrentUser(await accounts.setProfilePicture(userId, picture, request.id));
    },
  );

  app.put('/api/privacy', { preHandler: authenticate, schema: { body: privacyUpdateRequest, ...reply } }, async (request) =>
    toCurrentUser(await accounts.updatePrivacy(authOf(request).userId, request.body, request.id)),
  );
}
