import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDataAccess, isRepository, modelDelegates, serviceDataAccess } from './data-access';

const root = path.resolve(__dirname, '../..');

/** The services with a database of their own (a Prisma schema). */
const SERVICES = readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .filter((name) => readdirSync(path.join(root, 'services', name)).includes('prisma'));

/**
 * Issue 37, item 8: each service reads and writes through its own
 * repositories, in one data-access style — Prisma's model API for one table,
 * `sql` fragments for the rest (docs/architecture.md, "Data access").
 */
describe('data access: repositories, one style', () => {
  it('reads every service with a database', () => {
    expect(SERVICES.sort()).toEqual(['auth', 'challenges', 'media', 'messaging', 'notifications', 'places', 'sessions', 'social-graph']);
  });

  it.each(SERVICES)('%s touches its database only in src/repositories/', (service) => {
    const calls = serviceDataAccess(root, service);
    expect(calls.length, 'the scan found no database calls at all').toBeGreaterThan(0);
    const outside = calls.filter((c) => !isRepository(c.file)).map((c) => `${c.file}:${c.line} ${c.call}`);
    expect(outside, 'move these into a repository (src/repositories/<aggregate>.repository.ts)').toEqual([]);
  });

  it.each(SERVICES)('%s writes SQL as fragments only, never as a string with positional parameters', (service) => {
    const other = serviceDataAccess(root, service)
      .filter((c) => c.kind === 'unsafe' || c.kind === 'raw')
      .map((c) => `${c.file}:${c.line} ${c.call}`);
    expect(other, 'use sql`…` with queryRows / executeSql').toEqual([]);
  });

  // The negative control: the scan sees each kind of call, however it is written, and nothing else.
  it('finds model calls, raw SQL and fragments however they are written, and skips what only looks like them', () => {
    const models = modelDelegates('model PhotoAlbum {\n  id String\n}\nmodel User {\n id String\n}\n');
    expect([...models]).toEqual(['photoAlbum', 'user']);
    const source = `
      const a = await db.photoAlbum
        .findMany({ where: {} });
      await tx.$executeRawUnsafe('DELETE FROM x WHERE id = $1', id);
      await prisma.$queryRaw\`SELECT 1\`;
      await queryRows(db, sql\`SELECT 1\`);
      await database.prepared.query('feed', sql\`SELECT 1\`);
      // await db.user.delete({ where: { id } });
      const id = req.user.id;
      const b = list.findMany;
      const c = cache.count(key);
    `;
    expect(findDataAccess('x.ts', source, models).map((c) => [c.line, c.call, c.kind])).toEqual([
      [2, 'photoAlbum.findMany', 'model'],
      [4, '$executeRawUnsafe', 'unsafe'],
      [5, '$queryRaw', 'raw'],
      [6, 'queryRows', 'fragment'],
      [7, 'prepared.query', 'fragment'],
    ]);
    expect(isRepository(path.join('services', 'media', 'src', 'repositories', 'albums.repository.ts'))).toBe(true);
    expect(isRepository(path.join('services', 'media', 'src', 'domain', 'albums.ts'))).toBe(false);
  });
});
