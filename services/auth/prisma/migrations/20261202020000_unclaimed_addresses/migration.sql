-- Issue 40, item 14: registration does not tell which addresses have accounts.
-- An address is claimed by the first account registered with it; a later
-- registration with it makes an account that does not claim it (it signs in
-- with what was typed, can never verify that address, and is erased after 7
-- days unless it moves to a free address). The address is unique only among
-- the accounts that claim it: a partial index, which Prisma's schema cannot
-- say (schema.prisma keeps `email` without @unique; lookups use findFirst).
ALTER TABLE "users" ADD COLUMN "email_claimed" BOOLEAN NOT NULL DEFAULT true;
DROP INDEX "users_email_key";
CREATE UNIQUE INDEX "users_email_key" ON "users"("email") WHERE "email_claimed";
-- Login tries the newest unclaimed accounts of an address; the sweep finds the old ones.
CREATE INDEX "users_unclaimed_email_idx" ON "users"("email", "created_at" DESC) WHERE NOT "email_claimed";
CREATE INDEX "users_unclaimed_created_idx" ON "users"("created_at") WHERE NOT "email_claimed" AND NOT "is_email_verified";
