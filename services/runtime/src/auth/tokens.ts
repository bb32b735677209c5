import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: string;
  /** The user's token version when the token was issued; a password reset bumps it. */
  tokenVersion: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Resolves the claims of a valid token; rejects an invalid, expired or foreign one. */
  verify(token: string): Promise<TokenClaims>;
}

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidTokenError';
  }
}

const ISSUER = 'hoptrack';
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** '7d', '12h', '30m', '45s' or plain seconds. Computed here, not by jose, so an injected clock governs expiry. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match?.[1]) throw new Error(`Invalid duration: ${value}`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1);
}

/**
 * HS256 bearer tokens shared by every service: each verifies tokens itself
 * (authorization is the service's job), with no call to the auth service.
 */
export function createTokenService(options: {
  secret: string;
  /** Lifetime of signed tokens; services that only verify can leave it. */
  expiresIn?: string;
  clock?: () => Date;
}): TokenService {
  const key = new TextEncoder().encode(options.secret);
  const now = options.clock ?? (() => new Date());
  const lifetimeSeconds = parseDuration(options.expiresIn ?? '7d');
  return {
    async sign({ userId, tokenVersion }) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({ tv: tokenVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'], currentDate: now() });
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') {
          throw new InvalidTokenError('token is missing its claims');
        }
        return { userId: payload.sub, tokenVersion: payload.tv };
      } catch (err) {
        if (err instanceof InvalidTokenError) throw err;
        if (err instanceof errors.JWTExpired) throw new InvalidTokenError('token expired');
        throw new InvalidTokenError('token invalid');
      }
    },
  };
}
