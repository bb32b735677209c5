import { describe, expect, it } from 'vitest';
import { createTokenService, InvalidTokenError, parseDuration } from '../src/auth/tokens';
import { testClock } from '../src/testing/clock';

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

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(604_800);
    expect(parseDuration('90')).toBe(90);
    expect(() => parseDuration('soon')).toThrow();
  });
});
