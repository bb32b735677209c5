import { defineConfig } from 'prisma/config';

// The CLI reads this; the running service passes its URL to the pg driver adapter.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/hoptrack_challenges' },
});
