-- Issue 24: a change of e-mail waits for its verification link in
-- pending_email; a deleted account's erasure is tracked in erasures until
-- every service reported it and the streams and Redis were scrubbed (the row
-- then goes too: it is the last place that names the person).
ALTER TABLE "users" ADD COLUMN "pending_email" TEXT;

CREATE TABLE "erasures" (
  "user_id" UUID NOT NULL,
  "email" TEXT NOT NULL,
  "reported" TEXT[] NOT NULL DEFAULT '{}',
  "requested_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "complete_at" TIMESTAMPTZ(6),
  CONSTRAINT "erasures_pkey" PRIMARY KEY ("user_id")
);
CREATE INDEX "erasures_complete_at_idx" ON "erasures"("complete_at");
