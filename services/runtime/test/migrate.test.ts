import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { prepareDatabase } from '../src/db/prepare';
import { directDatabaseUrl } from '../src/config';
import { migrateDatabase } from '../src/service/assemble';
import { busMigrationDirs, INBOX_TABLE_SQL, OUTBOX_PEOPLE_MIGRATION, OUTBOX_TABLE_SQL, STREAM_PURGES_MIGRATION } from '../src/bus/tables';
import { readFileSync } from 'node:fs';
import { testDatabaseUrl, memoryLogger, parsePrismaSchema } from '@hoptrack/testing';

const url = testDatabaseUrl('runtime_migrate');
const { logger } = memoryLogger('test');
let dir: string;
let client: pg.Client;

async function addMigration(name: string, sql: string) {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

beforeAll(async () => {
  await ensureDatabase(url);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DROP TABLE IF EXISTS "_prisma_migrations", "widgets" CASCADE');
  dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
});
afterAll(() => client.end());

describe('migrate', () => {
  it('applies pending migrations once, in order, with Prisma bookkeeping', async () => {
    await addMigration('20260101000000_init', 'CREATE TABLE "widgets" ("id" SERIAL PRIMARY KEY);');
    await addMigration('20260102000000_name', 'ALTER TABLE "widgets" ADD COLUMN "name" TEXT;');
    expect(await migrate({ connectionString: url, migrationsDir: dir, logger })).toEqual(['20260101000000_init', '20260102000000_name']);
    expect(await migrate({ connectionString: url, migrationsDir: dir, logger })).toEqual([]);
    const rows = await client.query('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.rows.map((r) => r.migration_name)).toEqual(['20260101000000_init', '20260102000000_name']);
    expect(rows.rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at)).toBe(true);
  });

  it('runs concurrent starts one at a time', async () => {
    await addMigration('20260103000000_more', 'ALTER TABLE "widgets" ADD COLUMN "size" INT;');
    const results = await Promise.all([1, 2, 3].map(() => migrate({ connectionString: url, migrationsDir: dir, logger })));
    expect(results.flat()).toEqual(['20260103000000_more']);
  });

  it('rolls back a failing migration and reports it', async () => {
    await addMigration('20260104000000_broken', 'ALTER TABLE "widgets" ADD COLUMN "ok" INT; SELECT * FROM no_such_table;');
    await expect(migrate({ connectionString: url, migrationsDir: dir, logger })).rejects.toThrow(/20260104000000_broken failed/);
    const cols = await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'widgets' AND column_name = 'ok'`);
    expect(cols.rowCount).toBe(0);
    await writeFile(path.join(dir, '20260104000000_broken', 'migration.sql'), 'ALTER TABLE "widgets" ADD COLUMN "ok" INT;');
    expect(await migrate({ connectionString: url, migrationsDir: dir, logger })).toEqual(['20260104000000_broken']);
  });

  it('gives a new service its outbox and inbox from the bus part, the same tables as the runtime\'s reference SQL', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'migrations-bus-'));
    await mkdir(path.join(fresh, '20260201000000_service'), { recursive: true });
    await writeFile(path.join(fresh, '20260201000000_service', 'migration.sql'), 'CREATE TABLE IF NOT EXISTS "gadgets" ("id" SERIAL PRIMARY KEY);');
    await client.query('DROP TABLE IF EXISTS "outbox", "processed_events"');
    const applied = await migrate({ connectionString: url, migrationsDir: fresh, include: busMigrationDirs(), logger });
    expect(applied).toEqual(expect.arrayContaining(['20200101000000_outbox_inbox', '20260201000000_service']));
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_name IN ('outbox', 'processed_events') ORDER BY 1`);
    expect(tables.rows.map((r) => r.table_name)).toEqual(['outbox', 'processed_events']);
    const [part] = busMigrationDirs();
    const sql = readFileSync(path.join(part ?? '', '20200101000000_outbox_inbox', 'migration.sql'), 'utf8');
    // The positions beside the inbox, the outbox's people and stream columns and stream_purges come from the platform parts every service has (db/platform-parts.ts), not this one.
    const statements = `${OUTBOX_TABLE_SQL.replace(OUTBOX_PEOPLE_MIGRATION, '').replace(STREAM_PURGES_MIGRATION, '')}${INBOX_TABLE_SQL}`
      .split(';')
      .map((s) => s.trim())
      .filter((s) => s && !s.includes('consumer_positions') && !s.includes('issue 38'));
    for (const statement of statements) expect(sql).toContain(statement);
  });

  it('refuses a migration edited after it was applied', async () => {
    await writeFile(path.join(dir, '20260101000000_init', 'migration.sql'), 'CREATE TABLE "widgets" ("id" BIGSERIAL PRIMARY KEY);');
    await expect(migrate({ connectionString: url, migrationsDir: dir, logger })).rejects.toThrow(/was edited after it was applied/);
  });
});

describe('migrateDatabase', () => {
  it("migrates at the part's migrationUrl, not the URL its pools use (a transaction pooler in front: deploy/k8s)", async () => {
    const direct = testDatabaseUrl('runtime_migrate_direct');
    const own = await mkdtemp(path.join(tmpdir(), 'migrations-direct-'));
    await mkdir(path.join(own, '20260301000000_direct'), { recursive: true });
    await writeFile(path.join(own, '20260301000000_direct', 'migration.sql'), 'CREATE TABLE IF NOT EXISTS "direct_only" ("id" SERIAL PRIMARY KEY);');
    // The pools' URL answers nobody (port 1): the migration must not try it.
    const pooled = Object.assign(new URL(direct), { port: '1' }).toString();
    const config = { DATABASE_URL: pooled, DATABASE_MIGRATION_URL: direct };
    expect(directDatabaseUrl(config)).toBe(direct);
    expect(directDatabaseUrl({ DATABASE_URL: pooled })).toBe(pooled);
    await migrateDatabase({ url: (c: typeof config) => c.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: own }, config, logger);
    const check = new pg.Client({ connectionString: direct });
    await check.connect();
    try {
      expect((await check.query(`SELECT to_regclass('public.direct_only') IS NOT NULL AS found`)).rows[0]).toEqual({ found: true });
    } finally {
      await check.end();
    }
  });
});

describe('the database settings', () => {
  it('sets jit off on the database at start, so every new connection has it, and puts it back on a copy that lost it', async () => {
    const db = new URL(url).pathname.slice(1);
    await client.query(`ALTER DATABASE "${db}" RESET jit`);
    const jitOfNewConnection = async () => {
      const fresh = new pg.Client({ connectionString: url });
      await fresh.connect();
      try {
        return (await fresh.query<{ jit: string }>('SHOW jit')).rows[0]?.jit;
      } finally {
        await fresh.end();
      }
    };
    // The server's default (on) until a start applies the settings (a database of its own: the others' migrations stay).
    expect(await jitOfNewConnection()).toBe('on');
    const none = await mkdtemp(path.join(tmpdir(), 'no-migrations-'));
    await client.query('DROP TABLE IF EXISTS "_prisma_migrations"');
    await prepareDatabase(url, none, logger);
    expect(await jitOfNewConnection()).toBe('off');
    await prepareDatabase(url, none, logger);
    expect(await jitOfNewConnection()).toBe('off');
  });
});

describe('parsePrismaSchema', () => {
  it('reads tables, mapped columns, native types, optionality and skips relations', () => {
    const columns = parsePrismaSchema(`
model Post {
  id     String  @id @db.Uuid
  title  String? @map("post_title")
  tags   String[]
  author User    @relation(fields: [authorId], references: [id])
  authorId String @map("author_id") @db.Uuid
  @@map("posts")
}
model User {
  id String @id @db.Uuid
  posts Post[]
}`);
    expect(columns).toEqual([
      { table: 'posts', column: 'id', dataType: 'uuid', nullable: false },
      { table: 'posts', column: 'post_title', dataType: 'text', nullable: true },
      { table: 'posts', column: 'tags', dataType: 'ARRAY', nullable: false },
      { table: 'posts', column: 'author_id', dataType: 'uuid', nullable: false },
      { table: 'User', column: 'id', dataType: 'uuid', nullable: false },
    ]);
  });
});
