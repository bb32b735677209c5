import type { authApi } from '@hoptrack/proto';
import type { Handlers, UploadTokens } from '@hoptrack/runtime';
import type { Accounts } from '../domain/accounts';
import { pictureToKeep } from '../domain/profile-pictures';
import { toCurrentUser } from '../domain/user-views';

type MeHandlers = Pick<
  Handlers<typeof authApi>,
  'me' | 'updateProfile' | 'setProfilePicture' | 'removeProfilePicture' | 'updatePrivacy' | 'changePassword' | 'changeEmail' | 'deleteAccount'
>;

/** The signed-in user's own account: /api/me, its credentials, its deletion, its profile picture, and /api/privacy. */
export function meHandlers(accounts: Accounts, uploads: UploadTokens): MeHandlers {
  return {
    me: async (request) => toCurrentUser(await accounts.me(request.auth.userId)),

    updateProfile: async (request) => toCurrentUser(await accounts.updateProfile(request.auth.userId, request.body, request.id)),

    setProfilePicture: async (request) => {
      const { userId } = request.auth;
      const picture = pictureToKeep(uploads, await accounts.me(userId), request.body.profilePictureUrl);
      return toCurrentUser(await accounts.setProfilePicture(userId, picture, request.id));
    },

    removeProfilePicture: async (request) => toCurrentUser(await accounts.removeProfilePicture(request.auth.userId, request.id)),

    updatePrivacy: async (request) => toCurrentUser(await accounts.updatePrivacy(request.auth.userId, request.body, request.id)),

    // Issue 24: credentials while signed in, and the account's deletion; each asks for the password again.
    changePassword: async (request) => {
      const { token, user } = await accounts.changePassword(request.auth.userId, request.body, request.id);
      return { token, message: 'Password changed. Every other device has been signed out.', user: toCurrentUser(user) };
    },

    changeEmail: async (request) => {
      const user = await accounts.changeEmail(request.auth.userId, request.body);
      return {
        message: `We sent a link to ${request.body.newEmail}. Your e-mail address changes when you open it.`,
        user: toCurrentUser(user),
      };
    },

    deleteAccount: async (request) => {
      await accounts.deleteAccount(request.auth.userId, request.body.password, request.id);
      return { message: 'Your account has been deleted.' };
    },
  };
}
