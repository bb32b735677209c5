import { assertSchemaMatchesDatabase } from '@hoptrack/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl, startTestMedia, type TestMedia } from './support';

let media: TestMedia;
beforeAll(async () => {
  media = await startTestMedia();
});
afterAll(() => media.close());

it('the migrated database matches schema.prisma', async () => {
  await expect(assertSchemaMatchesDatabase(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), databaseUrl)).resolves.toBeUndefined();
});
