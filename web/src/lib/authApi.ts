import { queryOptions } from '@tanstack/react-query';
import type {
  ChangeEmailRequest,
  ChangePasswordRequest,
  DeleteAccountRequest,
  ForgotPasswordRequest,
  LoginRequest,
  PrivacyUpdateRequest,
  ProfileUpdateRequest,
  RegisterRequest,
  ResetPasswordRequest,
  VerifyEmailRequest,
} from '@hoptrack/proto';
import { api } from '../api';

/** Query keys are the contracts' own (`api.auth.<name>.key(...)`). */
export const CURRENT_USER_KEY = api.auth.me.key();

/** The person's recent data exports (GET /api/me/exports), newest first. */
export const DATA_EXPORTS_KEY = api.auth.exports.key();

export const dataExportsQuery = () => queryOptions({ queryKey: DATA_EXPORTS_KEY, queryFn: () => api.auth.exports() });

/** Where the person is signed in (GET /api/me/devices). */
export const DEVICES_KEY = api.auth.devices.key();
export const devicesQuery = () => queryOptions({ queryKey: DEVICES_KEY, queryFn: () => api.auth.devices() });

/** Moderators' actions concerning the signed-in person (issue 42): the account page's notices. */
export const MY_ACTIONS_KEY = api.auth.myActions.key();
export const myActionsQuery = () => queryOptions({ queryKey: MY_ACTIONS_KEY, queryFn: () => api.auth.myActions() });

/** Whether a reset link's token is still good, before the new-password form shows. */
export const verifyResetTokenQuery = (token: string) =>
  queryOptions({
    queryKey: api.auth.verifyResetToken.key({ params: { token } }),
    queryFn: () => api.auth.verifyResetToken({ params: { token } }),
  });

/** Typed calls of the auth service (spec section 7), bodies and answers from the contracts. */
export const authApi = {
  login: (body: LoginRequest) => api.auth.login({ body }),
  register: (body: RegisterRequest) => api.auth.register({ body }),
  forgotPassword: (body: ForgotPasswordRequest) => api.auth.forgotPassword({ body }),
  resetPassword: (body: ResetPasswordRequest) => api.auth.resetPassword({ body }),
  verifyEmail: (body: VerifyEmailRequest) => api.auth.verifyEmail({ body }),
  resendVerification: () => api.auth.resendVerification(),
  updatePrivacy: (body: PrivacyUpdateRequest) => api.auth.updatePrivacy({ body }),
  updateProfile: (body: ProfileUpdateRequest) => api.auth.updateProfile({ body }),
  /** Every token of the account dies, this device's too: the answer carries this device's new one. */
  changePassword: (body: ChangePasswordRequest) => api.auth.changePassword({ body }),
  changeEmail: (body: ChangeEmailRequest) => api.auth.changeEmail({ body }),
  deleteAccount: (body: DeleteAccountRequest) => api.auth.deleteAccount({ body }),
  /** Signs one device out at once (its token is refused everywhere). */
  signOutDevice: (id: string) => api.auth.signOutDevice({ params: { id } }),
  /** Starts an export (202), or answers the one already being prepared (200): `started` tells which. */
  requestExport: async () => {
    const { data: dataExport, response } = await api.auth.requestExport.withResponse();
    return { started: response.status === 202, dataExport };
  },
  /**
   * The zip of a ready export: the bearer-authenticated call answers with a
   * redirect to a short-lived signed link, which fetch follows (same origin).
   * 409 while it is being prepared, 410 once expired.
   */
  downloadExport: async (id: string): Promise<Blob> => (await api.auth.downloadExport.response({ params: { id } })).blob(),
};
