import { describe, expect, it } from 'vitest';
import { compile, identifier, joinSql, sql, uuid } from '../src/db/fragment';

/** Issue 37, item 8: SQL fragments carry their own parameters; the placeholders are numbered once, for the whole statement. */
describe('SQL fragments', () => {
  it('number the values of nested fragments in the order they appear', () => {
    const viewer = uuid('v-1');
    const inner = sql`EXISTS (SELECT 1 FROM "blocks" b WHERE b.blocker_id = ${viewer} AND b.blocked_id = ${identifier('s.user_id')})`;
    const statement = sql`SELECT * FROM sessions s WHERE s.kind = ${'pub'} AND NOT ${inner} LIMIT ${20}`;
    expect(compile(statement)).toEqual({
      text: 'SELECT * FROM sessions s WHERE s.kind = $1 AND NOT EXISTS (SELECT 1 FROM "blocks" b WHERE b.blocker_id = $2::uuid AND b.blocked_id = s.user_id) LIMIT $3',
      values: ['pub', 'v-1', 20],
    });
  });

  it('bind the same value twice as two parameters, so no fragment relies on another\'s position', () => {
    const v = uuid('v-1');
    expect(compile(sql`${v} = ${v}`)).toEqual({ text: '$1::uuid = $2::uuid', values: ['v-1', 'v-1'] });
  });

  it('join fragments with a separator, and an empty list to nothing', () => {
    expect(compile(joinSql([sql`a = ${1}`, sql`b = ${2}`], ' AND '))).toEqual({ text: 'a = $1 AND b = $2', values: [1, 2] });
    expect(compile(joinSql([]))).toEqual({ text: '', values: [] });
  });

  it('take only identifiers as spliced names (the control: a value is refused)', () => {
    expect(compile(identifier('"follows"."follower_id"')).text).toBe('"follows"."follower_id"');
    expect(() => identifier("x'; DROP TABLE users; --")).toThrow(/not a column or table name/);
    expect(() => identifier('$1')).toThrow(/not a column or table name/);
  });
});
