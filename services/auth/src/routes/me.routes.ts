import {
  authResponse,
  changeEmailRequest,
  changePasswordRequest,
  currentUser,
  deleteAccountRequest,
  emailChangeResponse,
  messageResponse,
  privacyUpdateRequest,
  profilePictureUpdateRequest,
  profileUpdateRequest,
} from '@hoptrack/proto';

import { authOf, type Authenticate, type ServiceApp, type UploadTokens } from '@hoptrack/runtime';
import type { Accounts } from '../domain/accounts';
import { pictureToKeep } from '../domain/profile-pictures';
import { toCurrentUser } from '../domain/user-views';

/** The signed-in user's own account: /api/me, its credentials, its deletion, its profile picture, and /api/privacy. */
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

  // Issue 24: credentials while signed in, and the account's deletion; each asks for the password again.
  app.put('/api/me/password', { preHandler: authenticate, schema: { body: changePasswordRequest, response: { 200: authResponse } } }, async (request) => {
    const { token, user } = await accounts.changePassword(authOf(request).userId, request.body, request.id);
    return { token, message: 'Password changed. Every other device has been signed out.', user: toCurrentUser(user) };
  });

  app.put('/api/me/email', { preHandler: authenticate, schema: { body: changeEmailRequest, response: { 200: emailChangeResponse } } }, async (request) => {
    const user = await accounts.changeEmail(authOf(request).userId, request.body);
    return {
      message: `We sent a link to ${request.body.newEmail}. Your e-mail address changes when you open it.`,
      user: toCurrentUser(user),
    };
  });

  app.delete('/api/me', { preHandler: authenticate, schema: { body: deleteAccountRequest, response: { 200: messageResponse } } }, async (request) => {
    await accounts.deleteAccount(authOf(request).userId, request.body.password, request.id);
    return { message: 'Your account has been deleted.' };
  });
}
