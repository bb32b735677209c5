-- Idempotent writes (issue 38, item 2; runtime src/http/idempotency.ts): the
-- first request with an Idempotency-Key claims it here, and its answer is
-- kept for 24 hours so a repeat answers the same without writing again. A
-- platform part: every service's database has it, whatever its own migrations.
CREATE TABLE IF NOT EXISTS "idempotent_requests" (
  -- The caller (user id, or 'anonymous') and the contract: one person's key never answers for another.
  "scope" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  -- sha256 of the method, URL and body: the same key with another request is refused (422).
  "fingerprint" TEXT NOT NULL,
  -- The first answer, once sent; NULL while the first request runs.
  "status" INTEGER,
  "body" TEXT,
  "content_type" TEXT,
  -- A claim without an answer lapses then (its process died): a repeat runs afresh.
  "locked_until" TIMESTAMPTZ(6) NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("scope", "key")
);
-- The pruner deletes what is older than 24 hours, oldest first.
CREATE INDEX IF NOT EXISTS "idempotent_requests_created_at_idx" ON "idempotent_requests" ("created_at");
