import {
  authResponse,
  forgotPasswordRequest,
  forgotPasswordResponse,
  loginRequest,
  messageResponse,
  registerRequest,
  resetPasswordRequest,
  resetTokenParams,
  verifyEmailRequest,
  verifyResetTokenResponse,
} from '@hoptrack/proto';
import { authOf, HttpError, tooManyRequests, type Authenticate, type FixedWindowLimiter, type ServiceApp } from '@hoptrack/runtime';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Accounts } from '../domain/accounts';
import { toCurrentUser } from '../domain/user-views';

export interface AuthRouteLimits {
  /** Attempts per address and account (all attempts). */
  loginMax: number;
  /** Failed attempts per account, from every address together (credential stuffing from many addresses). */
  accountFailuresMax: number;
  /** Requests per address. */
  forgotMax: number;
  limiter: FixedWindowLimiter;
  /** Resend-verification: one per person per minute, and a few per day (two windows, both in Redis). */
  resend: { perMinute: FixedWindowLimiter; perDay: FixedWindowLimiter; dayMax: number };
}

const FORGOT_MESSAGE = 'If an account exists for that email, a password reset link has been sent.';
const TOO_MANY_LOGINS = 'Too many login attempts, please try again later.';
export const TOO_MANY_RESENDS = 'Too many verification e-mails requested, please try again later.';

/** /api/auth/*: registration, login and the password-reset flow. */
export function authRoutes(app: ServiceApp, accounts: Accounts, limits: AuthRouteLimits, authenticate: Authenticate): void {
  const { limiter } = limits;
  // The limits count per address, under a hash of it: a Redis key must not carry an e-mail address
  // (an erased person's would outlive their account by a window, docs/decisions.md).
  const emailOf = (request: FastifyRequest) => {
    const body = request.body as { email?: unknown } | undefined;
    return createHash('sha256').update(typeof body?.email === 'string' ? body.email.toLowerCase() : '').digest('hex').slice(0, 32);
  };

  app.post(
    '/api/auth/register',
    { schema: { body: registerRequest, response: { 201: authResponse } } },
    async (request, reply) => {
      const { token, user } = await accounts.register(request.body, request.id);
      return reply.status(201).send({ token, message: 'Account created successfully', user: toCurrentUser(user) });
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: { body: loginRequest, response: { 200: authResponse } },
      // After validation, so the key has the e-mail. Two limits, both counted in Redis across replicas:
      // per address and account (slows guessing one password without locking out a shared network), and
      // failures per account from every address (credential stuffing spread over many addresses).
      preHandler: async (request) => {
        const email = emailOf(request);
        if ((await limiter.hit(`login:${request.ip}:${email}`)) > limits.loginMax) throw tooManyRequests(TOO_MANY_LOGINS);
        if ((await limiter.count(`login-failed:${email}`)) >= limits.accountFailuresMax) throw tooManyRequests(TOO_MANY_LOGINS);
      },
    },
    async (request) => {
      try {
        const { token, user } = await accounts.login(request.body);
        return { token, message: 'Login successful', user: toCurrentUser(user) };
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 401) await limiter.hit(`login-failed:${emailOf(request)}`);
        throw err;
      }
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { body: forgotPasswordRequest, response: { 200: forgotPasswordResponse } },
      preHandler: async (request) => {
        if ((await limiter.hit(`forgot:${request.ip}`)) > limits.forgotMax) throw tooManyRequests('Too many password reset requests, please try again later.');
      },
    },
    async (request) => {
      const extra = await accounts.forgotPassword(request.body.email);
      return { message: FORGOT_MESSAGE, ...extra };
    },
  );

  app.get(
    '/api/auth/verify-reset-token/:token',
    { schema: { params: resetTokenParams, response: { 200: verifyResetTokenResponse } } },
    async (request) => accounts.verifyResetToken(request.params.token),
  );

  app.post(
    '/api/auth/reset-password',
    { schema: { body: resetPasswordRequest, response: { 200: messageResponse } } },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.newPassword, request.id);
      return { message: 'Password has been reset. You can now sign in with your new password.' };
    },
  );

  app.post(
    '/api/auth/verify-email',
    { schema: { body: verifyEmailRequest, response: { 200: messageResponse } } },
    async (request) => {
      await accounts.verifyEmail(request.body.token, request.id);
      return { message: 'Email address verified. Thank you!' };
    },
  );

  app.post(
    '/api/auth/resend-verification',
    {
      schema: { response: { 200: messageResponse } },
      // Per person (not per address): each resend is a mail to someone's inbox, so one person cannot flood it.
      preHandler: [
        authenticate,
        async (request) => {
          const { userId } = authOf(request);
          if ((await limits.resend.perMinute.hit(`resend-verification:${userId}`)) > 1) throw tooManyRequests(TOO_MANY_RESENDS);
          if ((await limits.resend.perDay.hit(`resend-verification:${userId}`)) > limits.resend.dayMax) throw tooManyRequests(TOO_MANY_RESENDS);
        },
      ],
    },
    async (request) => {
      await accounts.resendVerification(authOf(request).userId);
      return { message: 'A new verification e-mail has been sent.' };
    },
  );
}
