-- Erasure without reading the streams (issue 41, item 5). The relay records where each event was stored
-- (its stream and sequence, from JetStream's publish ack); an erasure that deletes the outbox rows naming
-- the person queues those messages here, and the purger (runtime bus/purge.ts) deletes each one from its
-- stream once every durable consumer that would deliver it has acknowledged it. The cost follows the
-- person's events, never the stream's length. A platform part in every service's database; the outbox's
-- columns only where the service has an outbox. Rows published before this migration have no sequence:
-- their messages leave the streams at the streams' age (7 days), see docs/decisions.md.
DO $$
BEGIN
  IF to_regclass('outbox') IS NOT NULL THEN
    ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "stream" TEXT;
    ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "stream_seq" BIGINT;
  END IF;
END $$;

-- Messages to delete from the streams: no person in it, only where the messages are. Bounded: a row
-- goes when its message is deleted or gone, and the pruner drops rows older than the streams' age.
CREATE TABLE IF NOT EXISTS "stream_purges" (
  "stream"    TEXT        NOT NULL,
  "seq"       BIGINT      NOT NULL,
  "subject"   TEXT        NOT NULL,
  "queued_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY ("stream", "seq")
);
