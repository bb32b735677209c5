import { assertSchemaMatchesDatabase } from '@hoptrack/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl, startTestAuth, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth();
});
afterAll(() => auth.close());

it('the migrated database matches schema.prisma', async () => {
  await expect(
    assertSchemaMatchesDatabase(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), databaseUrl),
  ).resolves.toBeUndefined();
});
