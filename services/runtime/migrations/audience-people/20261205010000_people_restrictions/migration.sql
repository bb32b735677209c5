-- A moderator's restriction of an account (issue 42): suspended until a
-- time, or banned until an unban. From auth's snapshots like the token
-- version: each service's token check refuses the person's tokens while
-- either holds, so a suspension is refused everywhere once its barrier passed.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "suspended_until" TIMESTAMPTZ(6);
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "banned" BOOLEAN NOT NULL DEFAULT false;
