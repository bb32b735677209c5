-- The outbox and inbox every event-driven service keeps (runtime bus/tables.ts). Idempotent: the services
-- that predate this part created the same tables in their own first migration, and keep them as history.
CREATE TABLE IF NOT EXISTS "outbox" (
  "seq" BIGSERIAL NOT NULL,
  "id" UUID NOT NULL,
  "subject" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "published_at" TIMESTAMPTZ(6),
  CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX IF NOT EXISTS "outbox_id_key" ON "outbox"("id");
CREATE INDEX IF NOT EXISTS "outbox_published_at_seq_idx" ON "outbox"("published_at", "seq");
CREATE TABLE IF NOT EXISTS "processed_events" (
  "consumer" TEXT NOT NULL,
  "event_id" UUID NOT NULL,
  "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer", "event_id")
);
