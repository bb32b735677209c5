import { readFile } from 'node:fs/promises';
import { AUDIENCE_PARTS, audienceMigrationDirs, audienceTables, platformMigrationDirs, platformTables, readMigrations, type AudiencePart } from '@hoptrack/runtime';
import pg from 'pg';

/**
 * Proves the SQL migrations build the database the Prisma schema describes:
 * the same tables, columns, types and nullability. `prisma migrate diff`
 * would say this, but needs the schema engine we cannot download.
 */
interface ExpectedColumn {
  table: string;
  column: string;
  dataType: string;
  nullable: boolean;
}

const SCALARS: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  Float: 'double precision',
  Decimal: 'numeric',
  Json: 'jsonb',
  DateTime: 'timestamp without time zone',
  Bytes: 'bytea',
};

const NATIVE: Record<string, string> = {
  Uuid: 'uuid',
  Timestamptz: 'timestamp with time zone',
  Timestamp: 'timestamp without time zone',
  VarChar: 'character varying',
  Text: 'text',
  Date: 'date',
  DoublePrecision: 'double precision',
  Real: 'real',
  SmallInt: 'smallint',
};

export function parsePrismaSchema(source: string): ExpectedColumn[] {
  const columns: ExpectedColumn[] = [];
  const modelPattern = /^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm;
  const models = [...source.matchAll(modelPattern)];
  const modelNames = new Set(models.map((m) => m[1]));
  const enumNames = new Set([...source.matchAll(/^enum\s+(\w+)/gm)].map((m) => m[1]));
  for (const [, name, body = ''] of models) {
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name ?? '';
    for (const raw of body.split('\n')) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      const field = /^(\w+)\s+(\w+)(\?|\[\])?(.*)$/.exec(line);
      if (!field || line.startsWith('@@')) continue;
      const [, fieldName = '', type = '', modifier, attributes = ''] = field;
      if (modelNames.has(type)) continue; // relation field: no column of its own
      const native = /@db\.(\w+)/.exec(attributes)?.[1];
      const base = enumNames.has(type) ? 'USER-DEFINED' : ((native && NATIVE[native]) ?? SCALARS[type] ?? type);
      columns.push({
        table,
        column: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? fieldName,
        dataType: modifier === '[]' ? 'ARRAY' : base,
        nullable: modifier === '?',
      });
    }
  }
  return columns;
}

type ColumnRow = { table_name: string; column_name: string; data_type: string; is_nullable: string };

async function columnsOf(client: pg.Client, schema: string): Promise<ColumnRow[]> {
  const { rows } = await client.query<ColumnRow>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = $1 AND table_name <> '_prisma_migrations'`,
    [schema],
  );
  return rows;
}

/**
 * The runtime's tables (the audience module's and the platform's) as their
 * migrations alone build them: applied to an empty schema of their own, then dropped.
 */
async function audienceReference(client: pg.Client): Promise<Map<string, ColumnRow>> {
  const schema = `audience_reference_${process.pid}_${Date.now()}`;
  await client.query(`CREATE SCHEMA "${schema}"`);
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    for (const dir of [...platformMigrationDirs(), ...audienceMigrationDirs(Object.keys(AUDIENCE_PARTS) as AudiencePart[])]) {
      for (const migration of await readMigrations(dir)) await client.query(migration.sql);
    }
    await client.query('COMMIT');
    return new Map((await columnsOf(client, schema)).map((r) => [`${r.table_name}.${r.column_name}`, r]));
  } finally {
    await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  }
}

/**
 * Besides the service's own tables: the audience tables (services/runtime/src/audience)
 * must be exactly what the runtime's migrations build, whatever the service's
 * older migrations had made of them, and a Prisma model a service declares over
 * one (to read it typed) may name a subset of its columns, with their types.
 */
export async function assertSchemaMatchesDatabase(schemaPath: string, connectionString: string): Promise<void> {
  const expected = parsePrismaSchema(await readFile(schemaPath, 'utf8'));
  // The runtime's tables: the audience module's and the platform's (idempotent requests), held to their own migrations.
  const audience = new Set([...audienceTables(Object.keys(AUDIENCE_PARTS) as AudiencePart[]), ...platformTables()]);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const rows = await columnsOf(client, 'public');
    const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r]));
    const problems: string[] = [];
    const present = new Set(rows.map((r) => r.table_name));
    const reference = [...audience].some((table) => present.has(table)) ? await audienceReference(client) : new Map<string, ColumnRow>();
    {
      for (const table of audience) {
        if (!present.has(table)) continue;
        const mine = rows.filter((r) => r.table_name === table);
        for (const [key, column] of reference) {
          if (column.table_name !== table) continue;
          const found = mine.find((r) => `${r.table_name}.${r.column_name}` === key);
          if (!found) problems.push(`${key}: an audience column the database lacks`);
          else if (found.data_type !== column.data_type || found.is_nullable !== column.is_nullable) {
            problems.push(`${key} is ${found.data_type} ${found.is_nullable} here, ${column.data_type} ${column.is_nullable} in the audience module`);
          }
        }
      }
    }
    for (const column of expected) {
      const key = `${column.table}.${column.column}`;
      const found = actual.get(key);
      actual.delete(key);
      if (!found) {
        problems.push(`${key} is in the Prisma schema but not in the database`);
        continue;
      }
      if (found.data_type !== column.dataType) problems.push(`${key} is ${found.data_type} in the database, ${column.dataType} in the schema`);
      if ((found.is_nullable === 'YES') !== column.nullable) {
        problems.push(`${key} is ${found.is_nullable === 'YES' ? 'nullable' : 'NOT NULL'} in the database but not in the schema`);
      }
    }
    for (const [key, row] of actual) {
      // Audience columns belong to the runtime; a service's own extra column there must be in its schema.
      if (audience.has(row.table_name) && reference.has(key)) continue;
      problems.push(`${key} is in the database but not in the Prisma schema`);
    }
    if (problems.length > 0) throw new Error(`Migrations and schema.prisma disagree:\n${problems.join('\n')}`);
  } finally {
    await client.end();
  }
}
