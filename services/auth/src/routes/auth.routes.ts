import {
  authResponse,
  forgotPasswordRequest,
  forgotPasswordResponse,
  loginRequest,
  messageResponse,
  registerRequest,
  resetPasswordRequest,
  resetTokenParams,
  verifyResetTokenResponse,
} from '@hoptrack/proto';
import { HttpError, type ServiceApp } from '@hoptrack/runtime';
import type { FastifyRequest } from 'fastify';
import type { Accounts } from '../domain/accounts';
import { toCurrentUser } from '../domain/user-views';

export interface AuthRouteLimits {
  loginMax: number;
  forgotMax: number;
  windowMs: number;
}

const FORGOT_MESSAGE = 'If an account exists for that email, a password reset link has been sent.';

/** /api/auth/*: registration, login and the password-reset flow. */
export function authRoutes(app: ServiceApp, accounts: Accounts, limits: AuthRouteLimits): void {
  const limit = (max: number, message: string, key: (request: FastifyRequest) => string) => ({
    rateLimit: {
      max,
      timeWindow: limits.windowMs,
      keyGenerator: key,
      errorResponseBuilder: () => new HttpError(429, message),
    },
  });

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
      // Per address and account: slows guessing one password without locking out a shared network.
      config: limit(limits.loginMax, 'Too many login attempts, please try again later.', (request) => {
        const body = request.body as { email?: unknown } | undefined;
        return `login:${request.ip}:${typeof body?.email === 'string' ? body.email.toLowerCase() : ''}`;
      }),
    },
    async (request) => {
      const { token, user } = await accounts.login(request.body);
      return { token, message: 'Login successful', user: toCurrentUser(user) };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { body: forgotPasswordRequest, response: { 200: forgotPasswordResponse } },
      config: limit(limits.forgotMax, 'Too many password reset requests, please try again later.', (request) => `forgot:${request.ip}`),
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
}
