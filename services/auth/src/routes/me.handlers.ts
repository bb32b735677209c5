import type { authApi } from '@hoptrack/proto';
import type { Handlers, UploadTokens } from '@hoptrack/runtime';
import type { Accounts } from '../domain/accounts';
import { pictureToKeep } from '../domain/profile-pictures';
import { toCurrentUser } from '../domain/user-views';
import { clientOf } from './client';

type MeHandlers = Pick<
  Handlers<typeof authApi>,
  'me' | 'updateProfile' | 'setProfilePicture' | 'removeProfilePicture' | 'updatePrivacy' | 'changePassword' | 'changeEmail' | 'deleteAccount' | 'devices' | 'signOutDevice'
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
      const { userId, sessionId } = request.auth;
      const { token, user } = await accounts.changePassword(userId, request.body, request.id, { ...(sessionId ? { sessionId } : {}), client: clientOf(request) });
      return { token, message: 'Password changed. Every other device has been signed out.', user: toCurrentUser(user) };
    },

    changeEmail: async (request) => {
      const user = await accounts.changeEmail(request.auth.userId, request.body);
      return {
        message: `We sent a link to ${request.body.newEmail}. Your e-mail address changes when you open it.`,
        user: toCurrentUser(user),
      };
    },

    // Issue 40: where the person is signed in, and signing one of them out (this one too).
    devices: async (request) => accounts.devices(request.auth.userId, request.auth.sessionId),

    signOutDevice: async (request) => {
      await accounts.signOutDevice(request.auth.userId, request.params.id, request.id);
      return { message: 'Signed out.' };
    },

    deleteAccount: async (request) => {
      await accounts.deleteAccount(request.auth.userId, request.body.password, request.id);
      return { message: 'Your account has been deleted.' };
    },
  };
}
