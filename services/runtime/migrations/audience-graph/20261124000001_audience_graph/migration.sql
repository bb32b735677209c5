-- The audience module's graph tables (services/runtime/src/audience): who
-- follows whom and who are friends, blocks and mutes, as every service that
-- shows people's things keeps them from social-graph's social.* events.
-- One row per direction in follows: a request makes the requester follow the
-- recipient; acceptance makes both follow each other as friends.
CREATE TABLE IF NOT EXISTS "follows" (
  "follower_id" UUID NOT NULL,
  "followee_id" UUID NOT NULL,
  "is_friend" BOOLEAN NOT NULL DEFAULT false,
  CONSTRAINT "follows_pkey" PRIMARY KEY ("follower_id", "followee_id")
);
CREATE INDEX IF NOT EXISTS "follows_followee_id_idx" ON "follows"("followee_id");

CREATE TABLE IF NOT EXISTS "blocks" (
  "blocker_id" UUID NOT NULL,
  "blocked_id" UUID NOT NULL,
  CONSTRAINT "blocks_pkey" PRIMARY KEY ("blocker_id", "blocked_id")
);
CREATE INDEX IF NOT EXISTS "blocks_blocked_id_idx" ON "blocks"("blocked_id");

-- user_id muted muted_id: their sessions stay out of user_id's feed.
CREATE TABLE IF NOT EXISTS "mutes" (
  "user_id" UUID NOT NULL,
  "muted_id" UUID NOT NULL,
  CONSTRAINT "mutes_pkey" PRIMARY KEY ("user_id", "muted_id")
);
