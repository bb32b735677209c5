-- The audience module's people table (services/runtime/src/audience): who
-- someone is, their privacy switches and token version, as every service but
-- auth keeps them from auth's user.* events. One definition, applied by the
-- runtime's migration runner to each service database that asks for it.
-- Written to bring the earlier per-service users tables (each with its own
-- subset of these columns) to the one shape: a column already there is kept.
-- A column added here holds its default until the audience consumer's first
-- run (a new durable) replays the USERS stream, which refills every row.
CREATE TABLE IF NOT EXISTS "users" (
  "id" UUID NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "users"
  ADD COLUMN IF NOT EXISTS "username" TEXT NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS "display_name" TEXT NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS "bio" TEXT,
  ADD COLUMN IF NOT EXISTS "avatar" TEXT,
  ADD COLUMN IF NOT EXISTS "profile_picture" TEXT,
  -- Until the replay: private, DMs off, status hidden (privacy errs on the side of hiding).
  ADD COLUMN IF NOT EXISTS "is_profile_private" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN IF NOT EXISTS "allow_direct_messages" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN IF NOT EXISTS "show_online_status" BOOLEAN NOT NULL DEFAULT false,
  -- 0 accepts every token until the replay; a reset older than the stream's
  -- 7 days of events is older than every token's 7-day lifetime as well.
  ADD COLUMN IF NOT EXISTS "token_version" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP;
