import { compile, pgSqlClient, type Sql, type TransactionalSqlClient } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type { BeerSession, Comment, Like, Reaction } from './generated/prisma/client';
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * A statement sent by name: Postgres plans it once per connection instead of
 * on every call. For the hot path only (a feed page's one statement, whose
 * planning cost more than running it: docs/benchmarks.md); everything else
 * goes through Prisma.
 *
 * The statement is a fragment (`sql\`…\``), compiled to its text and values
 * on each call. A name stands for one text: the fragment's shape must not
 * depend on its values (a value, even null, is always a parameter; build
 * optional parts under another name). A name sent with another text throws,
 * rather than run on a connection that prepared the first one.
 */
export interface PreparedSql {
  query<T>(name: string, statement: Sql): Promise<T[]>;
}

export interface Database {
  prisma: PrismaClient;
  prepared: PreparedSql;
  /** Plain SQL over the same pool: the outbox relay. */
  sql: TransactionalSqlClient;
  /** Disconnects Prisma and ends the pool the two share. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
  poolMax?: number;
  /** Sees every statement sent, through Prisma or by name (the tests count a feed page's). */
  onStatement?: (sql: string) => void;
  /** An idle connection's error (Postgres restarted): the pool drops it and reconnects on demand. */
  onPoolError?: (err: Error) => void;
}

/** Prisma and the prepared statements over one pool: one connection budget. */
export function createDatabase(connectionString: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.poolMax ?? 10 });
  pool.on('error', (err) => options.onPoolError?.(err));
  const adapter = new PrismaPg(pool);
  const onStatement = options.onStatement;
  let prisma: PrismaClient;
  if (onStatement) {
    const logged = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
    logged.$on('query', (event) => onStatement(event.query));
    prisma = logged;
  } else {
    prisma = new PrismaClient({ adapter });
  }
  let closed = false;
  const texts = new Map<string, string>();
  return {
    prisma,
    sql: pgSqlClient(pool),
    prepared: {
      async query<T>(name: string, statement: Sql): Promise<T[]> {
        const { text, values } = compile(statement);
        const known = texts.get(name);
        if (known === undefined) texts.set(name, text);
        else if (known !== text) throw new Error(`named statement ${name} sent with another text: its fragment changed shape with its values`);
        onStatement?.(text);
        return (await pool.query({ name, text, values })).rows as T[];
      },
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
