import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput, refusedText } from '../src/http/validation';

/**
 * The one rule for text input (issue 39): every string a request carries, at
 * any depth, before any schema. The scan through the gateway sends a NUL to
 * every route (infra/security/injection.test.ts); here, each case of the rule.
 */
describe('the text input rule', () => {
  it('refuses NUL and the other control characters anywhere, naming the field', () => {
    for (const char of ['\u0000', '\u0007', '\u001B', '\u007F', '\u0085']) {
      expect(refusedText({ title: `a${char}b` }, 'body'), JSON.stringify(char)).toMatchObject({ statusCode: 400, field: 'title', message: 'title must not contain control characters' });
    }
    expect(refusedText({ track: { artist: 'ok', album: ['x', 'y\u0000'] } }, 'body')).toMatchObject({ field: 'track.album.1' });
    expect(refusedText('a\u0000', 'query')).toMatchObject({ field: 'query' });
  });

  it('keeps tabs and line breaks in free text, and any script', () => {
    expect(refusedText({ description: 'two\nlines\r\nand\ta tab', content: 'שלום \u2067hello\u2069 👋' }, 'body')).toBeNull();
  });

  it('refuses text-direction controls and line breaks in names only', () => {
    expect(refusedText({ displayName: 'Support\u202Eevil' }, 'body')).toMatchObject({ field: 'displayName', message: 'displayName must not contain text-direction controls' });
    expect(refusedText({ name: 'Line\nbreak' }, 'body')).toMatchObject({ field: 'name', message: 'name must be one line' });
    expect(refusedText({ username: 'tab\tbed' }, 'body')).toMatchObject({ field: 'username' });
    expect(refusedText({ bio: 'Support\u202Eevil\nsecond line' }, 'body')).toBeNull();
  });

  it('runs before the schema: a refused field is reported even where the schema would drop it', () => {
    const schema = z.object({ title: z.string() });
    expect(parseInput(schema, { title: 'ok', extra: 'a\u0000' }, 'body')).toMatchObject({ error: { field: 'extra' } });
    expect(parseInput(schema, { title: 'ok' }, 'body')).toEqual({ value: { title: 'ok' } });
  });
});
