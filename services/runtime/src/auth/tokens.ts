import { createLocalJWKSet, createRemoteJWKSet, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';

export interface TokenClaims {
  userId: string;
  /** The user's token version when the token was issued; a password reset bumps it. */
  tokenVersion: number;
  /**
   * The sign-in (device) the token belongs to, claim `sid` (issue 40): signing that device out
   * refuses its tokens everywhere. Tokens from before issue 40 have none.
   */
  sessionId?: string;
}

/** Checks bearer tokens with public keys only: what every service but auth holds. */
export interface TokenVerifier {
  /** Resolves the claims of a valid token; rejects an invalid, expired or foreign one. */
  verify(token: string): Promise<TokenClaims>;
}

/** Auth's side: signs with the first private key, and publishes the public halves of all of them. */
export interface TokenService extends TokenVerifier {
  sign(claims: TokenClaims): Promise<string>;
  /** How long a token lives from its signing (JWT_EXPIRES_IN): a sign-in is forgotten once its tokens expired. */
  lifetimeSeconds: number;
  /** The JWKS auth serves at /.well-known/jwks.json: public keys only. */
  jwks(): JSONWebKeySet;
}

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidTokenError';
  }
}

const ISSUER = 'hoptrack';
/** The one algorithm tokens are signed and accepted with (Ed25519). An allowlist, so alg none or an HMAC swap is refused. */
const ALGORITHM = 'EdDSA';
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** '7d', '12h', '30m', '45s' or plain seconds. Computed here, not by jose, so an injected clock governs expiry. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!match?.[1]) throw new Error(`Invalid duration: ${value}`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1);
}

/** An Ed25519 private key as a JWK, with the key id tokens name it by. */
export const signingKeySchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().min(1),
  d: z.string().min(1),
  kid: z.string().min(1),
});
export type SigningKey = z.infer<typeof signingKeySchema>;

/**
 * The development signing key. It is published (it is in this file), so a
 * token it signs proves nothing: auth refuses it in production, and the other
 * services accept it only outside production, where no JWKS URL is set.
 */
export const DEV_SIGNING_KEY: SigningKey = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'LKoIFtapIbMT9dnY6jd7T_MUVXSqGjzVPtC-EvYEXdc',
  d: 'Gpy828ZZdljpkZlzIbgC_qHzreOVv3wsGtNJJZMW_oY',
  kid: 'hoptrack-development',
};

/** The public half of a signing key, as a JWKS entry. */
export function publicJwk(key: SigningKey): JWK {
  return { kty: key.kty, crv: key.crv, x: key.x, kid: key.kid, alg: ALGORITHM, use: 'sig' };
}

export const DEV_JWKS: JSONWebKeySet = { keys: [publicJwk(DEV_SIGNING_KEY)] };

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The claims every service relies on, in their shapes: a user id that is a
 * UUID (one that was not reached a uuid column and answered 500, issue 39)
 * and a whole, non-negative token version. Anything else is not our token.
 */
function claimsOf(payload: { sub?: unknown; tv?: unknown; sid?: unknown }): TokenClaims {
  if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') throw new InvalidTokenError('token is missing its claims');
  if (!USER_ID.test(payload.sub) || !Number.isSafeInteger(payload.tv) || payload.tv < 0) throw new InvalidTokenError('token claims are malformed');
  if (payload.sid !== undefined && (typeof payload.sid !== 'string' || !USER_ID.test(payload.sid))) throw new InvalidTokenError('token claims are malformed');
  const claims: TokenClaims = { userId: payload.sub.toLowerCase(), tokenVersion: payload.tv };
  if (typeof payload.sid === 'string') claims.sessionId = payload.sid.toLowerCase();
  return claims;
}

/** Tokens remembered as verified (per process; a token is about 300 bytes). */
const VERIFIED_MAX = 5_000;

/**
 * This process's verifications so far: answered from memory, or by checking
 * the signature. Read by the process's metrics (auth_token_verifications_total)
 * and by the benchmark, which reports the hit rate beside the feed's cost.
 */
export const tokenVerificationStats = { remembered: 0, checked: 0 };
/** How long a remembered verification stands at most before the signature is checked again (keys leave the JWKS). */
const VERIFIED_FOR_MS = 60_000;

/**
 * Verifies a token's signature, issuer and expiry. A token verified once is
 * remembered until it expires, for a minute at most: the EdDSA check was a
 * tenth of a feed page's CPU (docs/benchmarks.md), and the same person sends
 * the same token many times a minute. Revocation is not affected — every
 * request's token-version check runs after this — and a verification is
 * never remembered longer than the key set it was checked against is cached
 * (`rememberMs`), so a key withdrawn from the JWKS stops working as before.
 */
function verifierOf(keys: JWTVerifyGetKey, now: () => Date, rememberMs = VERIFIED_FOR_MS): TokenVerifier {
  const verified = new Map<string, { claims: TokenClaims; expiresAt: number; until: number }>();
  return {
    async verify(token) {
      const at = now().getTime();
      const known = verified.get(token);
      if (known) {
        if (at >= known.expiresAt) {
          verified.delete(token);
          throw new InvalidTokenError('token expired');
        }
        if (at < known.until) {
          tokenVerificationStats.remembered++;
          return known.claims;
        }
        verified.delete(token);
      }
      tokenVerificationStats.checked++;
      try {
        const { payload } = await jwtVerify(token, keys, { issuer: ISSUER, algorithms: [ALGORITHM], requiredClaims: ['exp', 'sub'], currentDate: new Date(at) });
        const claims = claimsOf(payload);
        // Oldest first out (a Map keeps insertion order).
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
        verified.set(token, { claims, expiresAt: (payload.exp ?? 0) * 1000, until: at + rememberMs });
        return claims;
      } catch (err) {
        if (err instanceof InvalidTokenError) throw err;
        if (err instanceof errors.JWTExpired) throw new InvalidTokenError('token expired');
        // The JWKS could not be fetched (auth down, a timeout): a 503 for the caller to retry, not a 401.
        if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError)) throw err;
        throw new InvalidTokenError('token invalid');
      }
    },
  };
}

/**
 * A verifier of the services' tokens from a JWKS: a URL (auth's
 * /.well-known/jwks.json, fetched and cached; a token naming a key id not in
 * the cache makes it fetch again, at most once per `cooldownMs`) or a fixed
 * key set. Public keys only: a service that holds one cannot mint tokens.
 */
export function createTokenVerifier(options: { jwks: URL | JSONWebKeySet; clock?: () => Date; cacheMaxAgeMs?: number; cooldownMs?: number }): TokenVerifier {
  const cacheMaxAgeMs = options.cacheMaxAgeMs ?? 10 * 60_000;
  const keys =
    options.jwks instanceof URL
      ? createRemoteJWKSet(options.jwks, { cacheMaxAge: cacheMaxAgeMs, cooldownDuration: options.cooldownMs ?? 30_000, timeoutDuration: 5_000 })
      : createLocalJWKSet(options.jwks);
  return verifierOf(keys, options.clock ?? (() => new Date()), Math.min(VERIFIED_FOR_MS, cacheMaxAgeMs));
}

/**
 * Auth's token service: signs with the first of `keys` (the current one),
 * verifies against all of them, and publishes their public halves. During a
 * rollover the set holds the new key and the old one (docs/operations.md).
 */
export async function createTokenService(options: { keys: readonly SigningKey[]; expiresIn?: string; clock?: () => Date }): Promise<TokenService> {
  const [current] = options.keys;
  if (!current) throw new Error('createTokenService needs at least one signing key');
  const kids = options.keys.map((k) => k.kid);
  if (new Set(kids).size !== kids.length) throw new Error(`signing keys share a key id: ${kids.join(', ')}`);
  const privateKey = await importJWK({ ...current, alg: ALGORITHM }, ALGORITHM);
  const jwks: JSONWebKeySet = { keys: options.keys.map(publicJwk) };
  const now = options.clock ?? (() => new Date());
  const lifetimeSeconds = parseDuration(options.expiresIn ?? '7d');
  return {
    ...verifierOf(createLocalJWKSet(jwks), now),
    lifetimeSeconds,
    async sign({ userId, tokenVersion, sessionId }) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT(sessionId ? { tv: tokenVersion, sid: sessionId } : { tv: tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM, kid: current.kid, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(privateKey);
    },
    jwks: () => jwks,
  };
}

/** A new Ed25519 signing key (the `make-env` script and the rollover tests use it). */
export async function generateSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { crv: 'Ed25519', extractable: true });
  return signingKeySchema.parse({ ...(await exportJWK(privateKey)), kid });
}
