import { assertSchemaMatchesDatabase } from '@hoptrack/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl, startTestSocial, type TestSocial } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

it('the migrated database matches schema.prisma', async () => {
  await expect(
    assertSchemaMatchesDatabase(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), databaseUrl),
  ).resolves.toBeUndefined();
});

it.each([
  { name: 'a friendship with oneself', sql: (id: string) => `INSERT INTO friendships (id, user_id, friend_id, status, updated_at) VALUES (gen_random_uuid(), '${id}', '${id}', 'pending', now())` },
  { name: 'a friendship status outside pending/accepted', sql: (id: string) => `INSERT INTO friendships (id, user_id, friend_id, status, updated_at) VALUES (gen_random_uuid(), '${id}', gen_random_uuid(), 'blocked', now())` },
  { name: 'a block of oneself', sql: (id: string) => `INSERT INTO blocked_users (id, blocker_id, blocked_id) VALUES (gen_random_uuid(), '${id}', '${id}')` },
])('the database itself refuses $name', async ({ sql }) => {
  const user = await social.user();
  await expect(social.prisma.$executeRawUnsafe(sql(user.id))).rejects.toThrow(/check/i);
});
