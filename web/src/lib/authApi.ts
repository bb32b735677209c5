import type {
  AuthResponse,
  ChangeEmailRequest,
  ChangePasswordRequest,
  CurrentUser,
  DataExport,
  DeleteAccountRequest,
  EmailChangeResponse,
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginRequest,
  MessageResponse,
  PrivacyUpdateRequest,
  ProfileUpdateRequest,
  RegisterRequest,
  ResetPasswordRequest,
  VerifyEmailRequest,
} from '@hoptrack/proto';
import { apiRequest, apiResponse } from './api';

/** Query keys are the URL parts the default query fn joins with '/'. */
export const CURRENT_USER_KEY = ['/api/me'] as const;

/** The person's recent data exports (GET /api/me/exports), newest first. */
export const DATA_EXPORTS_KEY = ['/api/me/exports'] as const;

export function verifyResetTokenKey(token: string) {
  return ['/api/auth/verify-reset-token', encodeURIComponent(token)] as const;
}

/** Typed calls of the auth service (spec section 7), bodies and answers from @hoptrack/proto. */
export const authApi = {
  login: (body: LoginRequest) => apiRequest<AuthResponse>('POST', '/api/auth/login', body),
  register: (body: RegisterRequest) => apiRequest<AuthResponse>('POST', '/api/auth/register', body),
  forgotPassword: (body: ForgotPasswordRequest) =>
    apiRequest<ForgotPasswordResponse>('POST', '/api/auth/forgot-password', body),
  resetPassword: (body: ResetPasswordRequest) =>
    apiRequest<MessageResponse>('POST', '/api/auth/reset-password', body),
  verifyEmail: (body: VerifyEmailRequest) => apiRequest<MessageResponse>('POST', '/api/auth/verify-email', body),
  resendVerification: () => apiRequest<MessageResponse>('POST', '/api/auth/resend-verification', {}),
  updatePrivacy: (body: PrivacyUpdateRequest) => apiRequest<CurrentUser>('PUT', '/api/privacy', body),
  updateProfile: (body: ProfileUpdateRequest) => apiRequest<CurrentUser>('PATCH', '/api/me', body),
  /** Every token of the account dies, this device's too: the answer carries this device's new one. */
  changePassword: (body: ChangePasswordRequest) => apiRequest<AuthResponse>('PUT', '/api/me/password', body),
  changeEmail: (body: ChangeEmailRequest) => apiRequest<EmailChangeResponse>('PUT', '/api/me/email', body),
  deleteAccount: (body: DeleteAccountRequest) => apiRequest<MessageResponse>('DELETE', '/api/me', body),
  /** Starts an export (202), or answers the one already being prepared (200): `started` tells which. */
  requestExport: async (): Promise<{ started: boolean; dataExport: DataExport }> => {
    const res = await apiResponse('POST', '/api/me/export', {});
    return { started: res.status === 202, dataExport: (await res.json()) as DataExport };
  },
  listExports: () => apiRequest<DataExport[]>('GET', DATA_EXPORTS_KEY[0]),
  /**
   * The zip of a ready export: the bearer-authenticated call answers with a
   * redirect to a short-lived signed link, which fetch follows (same origin).
   * 409 while it is being prepared, 410 once expired.
   */
  downloadExport: async (id: string): Promise<Blob> => (await apiResponse('GET', `/api/me/export/${encodeURIComponent(id)}`)).blob(),
};
