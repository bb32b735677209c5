-- Where each durable consumer with a read model last stood (issue 38, item 8; runtime src/bus/positions.ts):
-- the stream's last sequence at a moment it had nothing pending. At its start, a stream whose first event
-- is past this position deleted events the consumer never read (it was away longer than the streams' age).
CREATE TABLE IF NOT EXISTS "consumer_positions" (
  "durable" TEXT NOT NULL,
  "stream_seq" BIGINT NOT NULL,
  "recorded_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "consumer_positions_pkey" PRIMARY KEY ("durable")
);
