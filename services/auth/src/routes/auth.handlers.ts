import type { authApi } from '@hoptrack/proto';
import { HttpError, tooManyRequests, type FixedWindowLimiter, type Handlers } from '@hoptrack/runtime';
import { limitKeys } from '../domain/limit-keys';
import type { Accounts, PasswordAttempts } from '../domain/accounts';
import { toCurrentUser } from '../domain/user-views';
import { clientOf } from './client';

export interface AuthRouteLimits {
  /** Attempts per address and account (all attempts). */
  loginMax: number;
  /** Failed attempts per account, from every address together (credential stuffing from many addresses). */
  accountFailuresMax: number;
  /** Requests per address. */
  forgotMax: number;
  /** Registrations per address. */
  registerMax: number;
  limiter: FixedWindowLimiter;
  /** Resend-verification: one per person per minute, and a few per day (two windows, both in Redis). */
  resend: { perMinute: FixedWindowLimiter; perDay: FixedWindowLimiter; dayMax: number };
}

const FORGOT_MESSAGE = 'If an account exists for that email, a password reset link has been sent.';
const TOO_MANY_LOGINS = 'Too many login attempts, please try again later.';
export const TOO_MANY_REGISTRATIONS = 'Too many accounts were created from your network, please try again later.';
export const TOO_MANY_RESENDS = 'Too many verification e-mails requested, please try again later.';


/**
 * The password asked again while signed in counts like login (issue 39):
 * attempts per account (login counts per address and account; here the
 * token is the account, and its holder may use any address), and every
 * failure joins the account's login failures, so guessing through either
 * door locks both with the same 429.
 */
export function passwordAttempts(limits: Pick<AuthRouteLimits, 'loginMax' | 'accountFailuresMax' | 'limiter'>): PasswordAttempts {
  const { limiter } = limits;
  return {
    async allow(user) {
      if ((await limiter.hit(limitKeys.reauth(user.id))) > limits.loginMax) throw tooManyRequests(TOO_MANY_PASSWORD_ATTEMPTS);
      if ((await limiter.count(limitKeys.loginFailed(user.email))) >= limits.accountFailuresMax) throw tooManyRequests(TOO_MANY_PASSWORD_ATTEMPTS);
    },
    async failed(user) {
      await limiter.hit(limitKeys.loginFailed(user.email));
    },
  };
}
export const TOO_MANY_PASSWORD_ATTEMPTS = 'Too many password attempts, please try again later.';

type AuthFlowHandlers = Pick<
  Handlers<typeof authApi>,
  'register' | 'login' | 'forgotPassword' | 'verifyResetToken' | 'resetPassword' | 'verifyEmail' | 'resendVerification'
>;

/** /api/auth/*: registration, login and the password-reset and verification flows. */
export function authHandlers(accounts: Accounts, limits: AuthRouteLimits): AuthFlowHandlers {
  const { limiter } = limits;

  return {
    register: async (request) => {
      if ((await limiter.hit(limitKeys.register(request.ip))) > limits.registerMax) throw tooManyRequests(TOO_MANY_REGISTRATIONS);
      const { token, user } = await accounts.register(request.body, request.id, clientOf(request));
      return { token, message: 'Account created successfully', user: toCurrentUser(user) };
    },

    login: async (request) => {
      // After validation, so the key has the e-mail. Two limits, both counted in Redis across replicas:
      // per address and account (slows guessing one password without locking out a shared network), and
      // failures per account from every address (credential stuffing spread over many addresses).
      if ((await limiter.hit(limitKeys.login(request.ip, request.body.email))) > limits.loginMax) throw tooManyRequests(TOO_MANY_LOGINS);
      if ((await limiter.count(limitKeys.loginFailed(request.body.email))) >= limits.accountFailuresMax) throw tooManyRequests(TOO_MANY_LOGINS);
      try {
        const { token, user } = await accounts.login(request.body, clientOf(request));
        return { token, message: 'Login successful', user: toCurrentUser(user) };
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 401) await limiter.hit(limitKeys.loginFailed(request.body.email));
        throw err;
      }
    },

    forgotPassword: async (request) => {
      if ((await limiter.hit(limitKeys.forgot(request.ip))) > limits.forgotMax) throw tooManyRequests('Too many password reset requests, please try again later.');
      const extra = await accounts.forgotPassword(request.body.email);
      return { message: FORGOT_MESSAGE, ...extra };
    },

    verifyResetToken: async (request) => accounts.verifyResetToken(request.params.token),

    resetPassword: async (request) => {
      await accounts.resetPassword(request.body.token, request.body.newPassword, request.id);
      return { message: 'Password has been reset. You can now sign in with your new password.' };
    },

    verifyEmail: async (request) => {
      await accounts.verifyEmail(request.body.token, request.id);
      return { message: 'Email address verified. Thank you!' };
    },

    resendVerification: async (request) => {
      const { userId } = request.auth;
      // Per person (not per address): each resend is a mail to someone's inbox, so one person cannot flood it.
      if ((await limits.resend.perMinute.hit(limitKeys.resendVerification(userId))) > 1) throw tooManyRequests(TOO_MANY_RESENDS);
      if ((await limits.resend.perDay.hit(limitKeys.resendVerification(userId))) > limits.resend.dayMax) throw tooManyRequests(TOO_MANY_RESENDS);
      await accounts.resendVerification(userId);
      return { message: 'A new verification e-mail has been sent.' };
    },
  };
}
