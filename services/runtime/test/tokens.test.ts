import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTokenService,
  createTokenVerifier,
  DEV_SIGNING_KEY,
  generateSigningKey,
  InvalidTokenError,
  parseDuration,
  publicJwk,
  type SigningKey,
  type TokenService,
} from '../src/auth/tokens';
import { isDependencyUnavailable } from '../src/http/unavailable';
import { eventually, testClock } from '@hoptrack/testing';

const USER = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const VICTIM = '0b1c2d3e-4f50-4a6b-8c7d-8e9f0a1b2c3d';
let key: SigningKey;
let tokens: TokenService;
beforeAll(async () => {
  key = await generateSigningKey('test-1');
  tokens = await createTokenService({ keys: [key], expiresIn: '1h' });
});

describe('tokens', () => {
  it('round-trips the claims, signed with EdDSA under the key id', async () => {
    const token = await tokens.sign({ userId: USER, tokenVersion: 3 });
    await expect(tokens.verify(token)).resolves.toEqual({ userId: USER, tokenVersion: 3 });
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).toMatchObject({ alg: 'EdDSA', kid: 'test-1' });
  });

  it('publishes public keys only', () => {
    expect(tokens.jwks()).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: key.x, kid: 'test-1', alg: 'EdDSA', use: 'sig' }] });
    expect(JSON.stringify(tokens.jwks())).not.toContain(key.d);
  });

  it('a verifier holding the public key verifies; it has nothing to sign with', async () => {
    const verifier = createTokenVerifier({ jwks: tokens.jwks() });
    await expect(verifier.verify(await tokens.sign({ userId: USER, tokenVersion: 0 }))).resolves.toEqual({ userId: USER, tokenVersion: 0 });
    expect('sign' in verifier).toBe(false);
  });

  it('expires by the injected clock', async () => {
    const clock = testClock();
    const timed = await createTokenService({ keys: [key], expiresIn: '1h', clock: clock.now });
    const token = await timed.sign({ userId: USER, tokenVersion: 0 });
    clock.advance(59 * 60 * 1000);
    await expect(timed.verify(token)).resolves.toBeTruthy();
    clock.advance(2 * 60 * 1000);
    await expect(timed.verify(token)).rejects.toThrow('token expired');
  });

  it('refuses a token signed with a key not in the set, even under the same key id', async () => {
    const other = await generateSigningKey('test-1');
    const forged = await (await createTokenService({ keys: [other] })).sign({ userId: USER, tokenVersion: 0 });
    await expect(tokens.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  describe('refuses forged tokens (issue 9, item 15; issue 19)', () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = () => ({ sub: VICTIM, tv: 0, iss: 'hoptrack', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
    const privateKey = async () => (await import('jose')).importJWK({ ...key, alg: 'EdDSA' }, 'EdDSA');

    it('alg none (no signature)', async () => {
      await expect(tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('an algorithm swap: HMAC keyed with the public key (the classic confusion), or the old shared secret', async () => {
      for (const secret of [key.x, 'hoptrack-development-secret-change-me-please']) {
        for (const alg of ['HS256', 'HS512'] as const) {
          const swapped = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg, kid: 'test-1' }).setSubject(VICTIM).setIssuer('hoptrack').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));
          await expect(tokens.verify(swapped), `${alg} ${secret}`).rejects.toBeInstanceOf(InvalidTokenError);
        }
      }
    });

    it('a tampered payload under the original signature', async () => {
      const [header, , signature] = (await tokens.sign({ userId: USER, tokenVersion: 0 })).split('.');
      await expect(tokens.verify(`${header}.${b64({ ...claims(), sub: VICTIM })}.${signature}`)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('another issuer, no version claim, or no expiry', async () => {
      const signed = (build: SignJWT) => build.setProtectedHeader({ alg: 'EdDSA', kid: 'test-1' }).setSubject(VICTIM).setIssuedAt();
      const foreign = await signed(new SignJWT({ tv: 0 }).setIssuer('elsewhere').setExpirationTime('1h')).sign(await privateKey());
      await expect(tokens.verify(foreign)).rejects.toBeInstanceOf(InvalidTokenError);
      const versionless = await signed(new SignJWT({}).setIssuer('hoptrack').setExpirationTime('1h')).sign(await privateKey());
      await expect(tokens.verify(versionless)).rejects.toThrow('token is missing its claims');
      const forever = await signed(new SignJWT({ tv: 0 }).setIssuer('hoptrack')).sign(await privateKey());
      await expect(tokens.verify(forever)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('claims of the wrong shape, well signed: a user id that is no UUID, a version that is no whole number (issue 39: answered 500)', async () => {
      const signed = async (sub: string, tv: unknown) =>
        new SignJWT({ tv }).setProtectedHeader({ alg: 'EdDSA', kid: 'test-1' }).setSubject(sub).setIssuer('hoptrack').setIssuedAt().setExpirationTime('1h').sign(await privateKey());
      for (const [sub, tv] of [['admin', 0], [`${VICTIM}' OR 1=1`, 0], [VICTIM, -1], [VICTIM, 1.5]] as const) {
        await expect(tokens.verify(await signed(sub, tv)), `${sub} ${tv}`).rejects.toThrow('token claims are malformed');
      }
      // The shapes it does take: a UUID in any letter case (answered in lower case) and a version of 0 or more.
      await expect(tokens.verify(await signed(VICTIM.toUpperCase(), 2))).resolves.toEqual({ userId: VICTIM, tokenVersion: 2 });
    });

    it('garbage', async () => {
      for (const token of ['', 'a.b.c', 'not-a-token', `${b64({ alg: 'EdDSA' })}.${b64(claims())}`]) {
        await expect(tokens.verify(token), token).rejects.toBeInstanceOf(InvalidTokenError);
      }
    });

    it('the published development key signs nothing a production verifier takes', async () => {
      const dev = await (await createTokenService({ keys: [DEV_SIGNING_KEY] })).sign({ userId: VICTIM, tokenVersion: 0 });
      await expect(tokens.verify(dev)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });

  it('refuses two signing keys under one key id', async () => {
    await expect(createTokenService({ keys: [key, { ...DEV_SIGNING_KEY, kid: 'test-1' }] })).rejects.toThrow(/share a key id/);
  });

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(604_800);
    expect(parseDuration('90')).toBe(90);
    expect(() => parseDuration('soon')).toThrow();
  });
});

/**
 * A key rollover, as docs/operations.md describes it, against a verifier
 * that fetches auth's JWKS over HTTP: 1. the new key is published beside the
 * old (old still signs); 2. the new key signs, the old is still published, so
 * tokens of both verify; 3. the old key is withdrawn: its tokens are refused.
 */
describe('key rollover through a fetched JWKS', () => {
  let server: Server;
  let published: JSONWebKeySet = { keys: [] };
  let fetches = 0;
  let url: URL;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(published));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps every token of both keys valid during the overlap, and refuses the old key once withdrawn', async () => {
    const [oldKey, newKey] = [await generateSigningKey('2026-11-old'), await generateSigningKey('2026-12-new')];
    // The verifier caches briefly here (production: 10 minutes), so the test need not wait long for step 3.
    const verifier = createTokenVerifier({ jwks: url, cacheMaxAgeMs: 200, cooldownMs: 0 });
    published = { keys: [publicJwk(oldKey)] };
    const before = await (await createTokenService({ keys: [oldKey] })).sign({ userId: USER, tokenVersion: 0 });
    await expect(verifier.verify(before)).resolves.toEqual({ userId: USER, tokenVersion: 0 });

    // 1 and 2: both published, the new one signs (auth's JWT_SIGNING_KEYS = [new, old]).
    const auth = await createTokenService({ keys: [newKey, oldKey] });
    published = auth.jwks();
    const after = await auth.sign({ userId: USER, tokenVersion: 0 });
    const fetchesBefore = fetches;
    // An unknown key id makes the verifier fetch the set again rather than refuse.
    await expect(verifier.verify(after)).resolves.toEqual({ userId: USER, tokenVersion: 0 });
    expect(fetches).toBeGreaterThan(fetchesBefore);
    await expect(verifier.verify(before)).resolves.toBeTruthy();
    await expect(auth.verify(before)).resolves.toBeTruthy();

    // 3: the old key withdrawn (its tokens have all expired by then in production).
    published = { keys: [publicJwk(newKey)] };
    await eventually(async () => verifier.verify(before).then(() => false, (err: unknown) => err instanceof InvalidTokenError), 'old key refused once the cache expired');
    await expect(verifier.verify(after)).resolves.toBeTruthy();
  });

  it('a JWKS that cannot be fetched is a dependency being down (503), not a bad token (401)', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'k' };
    const token = await (await createTokenService({ keys: [jwk as SigningKey] })).sign({ userId: USER, tokenVersion: 0 });
    const nowhere = createTokenVerifier({ jwks: new URL('http://127.0.0.1:9/.well-known/jwks.json') });
    const failure = await nowhere.verify(token).then(() => null, (err: unknown) => err);
    expect(failure).not.toBeInstanceOf(InvalidTokenError);
    expect(isDependencyUnavailable(failure)).toBe(true);
  });
});
