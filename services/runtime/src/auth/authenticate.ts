import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors';
import { InvalidTokenError, type TokenClaims, type TokenService } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: TokenClaims;
  }
}

/**
 * A preHandler that demands a valid bearer token. `isCurrent` lets the service
 * reject tokens that are well-signed but revoked (issued before a password reset).
 */
export type Authenticate = (request: FastifyRequest) => Promise<void>;

export function bearerAuth(tokens: TokenService, isCurrent?: (claims: TokenClaims) => Promise<boolean>): Authenticate {
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
    if (isCurrent && !(await isCurrent(claims))) throw unauthorized('Invalid or expired token');
    request.auth = claims;
  };
}

/** The caller of a route guarded by `bearerAuth`. */
export function authOf(request: FastifyRequest): TokenClaims {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
