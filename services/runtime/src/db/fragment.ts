import type { SqlClient } from './sql';

/**
 * A piece of SQL that carries its own parameters. Fragments compose by
 * interpolation (`sql\`… WHERE ${other}\``): the values travel with their
 * text, and the placeholders ($1, $2…) are numbered once, when the whole
 * statement is compiled. So a builder (the audience's `canSee`) binds what it
 * needs itself, and no caller has to keep a parameter at a given position.
 */
export class Sql {
  /** `strings.length === values.length + 1`, as in a template literal. */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/** SQL with its values: every interpolated value is a parameter; an interpolated fragment is spliced in with its own. */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): Sql {
  const text: string[] = [strings[0] ?? ''];
  const bound: unknown[] = [];
  values.forEach((value, i) => {
    const after = strings[i + 1] ?? '';
    if (value instanceof Sql) {
      text[text.length - 1] += value.strings[0] ?? '';
      value.values.forEach((inner, j) => {
        bound.push(inner);
        text.push(value.strings[j + 1] ?? '');
      });
      text[text.length - 1] += after;
    } else {
      bound.push(value);
      text.push(after);
    }
  });
  return new Sql(text, bound);
}

const IDENTIFIER = /^"?[a-z_][a-z0-9_]*"?(\."?[a-z_][a-z0-9_]*"?)?$/;

/** A (qualified) column or table name, spliced as text: only identifiers are taken, never a value from a request. */
export function identifier(name: string): Sql {
  if (!IDENTIFIER.test(name)) throw new Error(`not a column or table name: ${name}`);
  return new Sql([name], []);
}

/** A uuid parameter (`$n::uuid`). */
export const uuid = (value: string): Sql => sql`${value}::uuid`;

/** Fragments one after another, with `separator` between them. */
export function joinSql(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return new Sql([''], []);
  return parts.slice(1).reduce((joined, part) => sql`${joined}${new Sql([separator], [])}${part}`, parts[0] as Sql);
}

/** The statement's text with numbered placeholders, and its values in order. */
export function compile(fragment: Sql): { text: string; values: unknown[] } {
  const text = fragment.strings.reduce((out, part, i) => (i === 0 ? part : `${out}$${i}${part}`), '');
  return { text, values: [...fragment.values] };
}

/** Runs a query fragment on a client or a transaction. */
export function queryRows<T>(db: SqlClient, fragment: Sql): Promise<T> {
  const { text, values } = compile(fragment);
  return db.$queryRawUnsafe<T>(text, ...values);
}

/** Runs a statement fragment; the rows it changed. */
export function executeSql(db: SqlClient, fragment: Sql): Promise<number> {
  const { text, values } = compile(fragment);
  return db.$executeRawUnsafe(text, ...values);
}
