import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors';
import { InvalidTokenError, type TokenClaims, type TokenVerifier } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: TokenClaims;
  }
}

/** Demands a valid, current bearer token: mountRoutes runs it first (onRequest) for every signed-in contract. */
export type Authenticate = (request: FastifyRequest) => Promise<void>;

/**
 * `isCurrent` is required, not optional: a well-signed token issued before a
 * password reset must be refused at every service, and a check a service can
 * forget was forgotten by three of them once. Services other than auth pass
 * the audience module's `tokenVersionCheck` (or call `audienceAuth`).
 */
export function bearerAuth(tokens: TokenVerifier, isCurrent: (claims: TokenClaims) => Promise<boolean>): Authenticate {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('Authentication required');
    let claims: TokenClaims;
    try {
      claims = await tokens.verify(match[1]);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw unauthorized('Invalid or expired token');
      throw err;
    }
    if (!(await isCurrent(claims))) throw unauthorized('Invalid or expired token');
    request.auth = claims;
  };
}
