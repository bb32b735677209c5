import type { Role } from '@hoptrack/proto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors';
import { InvalidTokenError, type TokenClaims, type TokenVerifier } from './tokens';

/**
 * Who is calling: the token's claims, and the staff roles the person holds
 * now (issue 42). The roles come from the same read as the token-version
 * check (the people table or its cache), never from the token: a revoked
 * role stops working when the revoke's barrier passes, not when a token
 * expires.
 */
export interface Identity extends TokenClaims {
  roles: readonly Role[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Identity;
  }
}

/** Demands a valid, current bearer token: mountRoutes runs it first (onRequest) for every contract that needs one. */
export type Authenticate = (request: FastifyRequest) => Promise<void>;

/** What the holder of a well-signed token is now, or null when the token is no longer current. */
export type CurrentCheck = (claims: TokenClaims) => Promise<{ roles: readonly Role[] } | null>;

/**
 * `isCurrent` is required, not optional: a well-signed token issued before a
 * password reset must be refused at every service, and a check a service can
 * forget was forgotten by three of them once. Services other than auth pass
 * the audience module's `tokenVersionCheck` (or call `audienceAuth`).
 */
export function bearerAuth(tokens: TokenVerifier, isCurrent: CurrentCheck): Authenticate {
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
    const current = await isCurrent(claims);
    if (!current) throw unauthorized('Invalid or expired token');
    request.auth = { ...claims, roles: current.roles };
  };
}
