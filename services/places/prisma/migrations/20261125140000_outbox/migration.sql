-- The transactional outbox (services/runtime/src/bus/outbox.ts): places now
-- publishes place.review.created.v1 and place.review.deleted.v1, written here
-- in the review's own transaction and relayed to NATS afterwards.
CREATE TABLE "outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "outbox_id_key" ON "outbox"("id");
CREATE INDEX "outbox_published_at_seq_idx" ON "outbox"("published_at", "seq");
