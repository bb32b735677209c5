import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, InvalidTokenError, parseDuration } from '../src/auth/tokens';
import { testClock } from '@hoptrack/testing';

const secret = 's'.repeat(40);

describe('tokens', () => {
  it('round-trips the claims', async () => {
    const tokens = createTokenService({ secret, expiresIn: '1h' });
    const token = await tokens.sign({ userId: 'u1', tokenVersion: 3 });
    await expect(tokens.verify(token)).resolves.toEqual({ userId: 'u1', tokenVersion: 3 });
  });

  it('expires by the injected clock', async () => {
    const clock = testClock();
    const tokens = createTokenService({ secret, expiresIn: '1h', clock: clock.now });
    const token = await tokens.sign({ userId: 'u1', tokenVersion: 0 });
    clock.advance(59 * 60 * 1000);
    await expect(tokens.verify(token)).resolves.toBeTruthy();
    clock.advance(2 * 60 * 1000);
    await expect(tokens.verify(token)).rejects.toThrow('token expired');
  });

  it('refuses a token signed with another secret', async () => {
    const other = await createTokenService({ secret: 'o'.repeat(40), expiresIn: '1h' }).sign({ userId: 'u', tokenVersion: 0 });
    await expect(createTokenService({ secret, expiresIn: '1h' }).verify(other)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  describe('refuses forged tokens (issue 9, item 15)', () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = () => ({ sub: 'victim', tv: 0, iss: 'hoptrack', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
    const tokens = createTokenService({ secret, expiresIn: '1h' });

    it('alg none (no signature)', async () => {
      await expect(tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('an algorithm swap: the right secret under HS512 or HS384', async () => {
      for (const alg of ['HS512', 'HS384'] as const) {
        const swapped = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg }).setSubject('victim').setIssuer('hoptrack').setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));
        await expect(tokens.verify(swapped), alg).rejects.toBeInstanceOf(InvalidTokenError);
      }
    });

    it('a tampered payload under the original signature', async () => {
      const [header, , signature] = (await tokens.sign({ userId: 'me', tokenVersion: 0 })).split('.');
      await expect(tokens.verify(`${header}.${b64({ ...claims(), sub: 'victim' })}.${signature}`)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('another issuer, or no version claim', async () => {
      const key = new TextEncoder().encode(secret);
      const foreign = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('victim').setIssuer('elsewhere').setIssuedAt().setExpirationTime('1h').sign(key);
      await expect(tokens.verify(foreign)).rejects.toBeInstanceOf(InvalidTokenError);
      const versionless = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('victim').setIssuer('hoptrack').setIssuedAt().setExpirationTime('1h').sign(key);
      await expect(tokens.verify(versionless)).rejects.toThrow('token is missing its claims');
    });

    it('garbage', async () => {
      for (const token of ['', 'a.b.c', 'not-a-token', `${b64({ alg: 'HS256' })}.${b64(claims())}`]) {
        await expect(tokens.verify(token), token).rejects.toBeInstanceOf(InvalidTokenError);
      }
    });
  });

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(604_800);
    expect(parseDuration('90')).toBe(90);
    expect(() => parseDuration('soon')).toThrow();
  });
});
