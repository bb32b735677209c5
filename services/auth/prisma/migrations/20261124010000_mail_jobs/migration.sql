-- Mail leaves the request path (issue 19): forgot-password writes a job in
-- the same transaction as the reset token, and the mail relay sends it. A
-- request for an address with no account writes a job too ('skipped', never
-- sent), so both answers cost the same.
CREATE TABLE "mail_jobs" (
    "id" UUID NOT NULL,
    -- password-reset | unknown-address
    "kind" TEXT NOT NULL,
    "recipient" TEXT,
    -- Holds the reset link (its token) only until the mail is sent or given up.
    "reset_url" TEXT,
    -- pending | sent | skipped | failed
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(6),
    CONSTRAINT "mail_jobs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "mail_jobs_status_next_attempt_at_idx" ON "mail_jobs"("status", "next_attempt_at");

-- Reset tokens move out of users (whose password_reset_* columns stay for the
-- spec's shape, empty): forgot-password then runs the same statements whether
-- or not the address has an account (a row with no user is never valid), so
-- its answer takes the same time either way.
CREATE TABLE "password_resets" (
    -- sha256 of the token; the token itself exists only in the e-mail.
    "token_hash" TEXT NOT NULL,
    "user_id" UUID,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "password_resets_user_id_idx" ON "password_resets"("user_id");
CREATE INDEX "password_resets_expires_at_idx" ON "password_resets"("expires_at");
INSERT INTO "password_resets" ("token_hash", "user_id", "expires_at")
  SELECT "password_reset_token", "id", "password_reset_expires" FROM "users"
   WHERE "password_reset_token" IS NOT NULL AND "password_reset_expires" IS NOT NULL;
UPDATE "users" SET "password_reset_token" = NULL, "password_reset_expires" = NULL WHERE "password_reset_token" IS NOT NULL;
