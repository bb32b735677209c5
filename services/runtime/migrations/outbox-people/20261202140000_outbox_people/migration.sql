-- Each outbox row records the ids its event names (issue 41): an erasure deletes the rows naming the
-- person by the GIN index (runtime audience/erased.ts, forgetEventsNaming), not by a scan of the whole
-- outbox. A platform part, in every service's database: applied after every service's first migration
-- (and the bus part's), which made the outbox; a database with no outbox (none of the services') is left alone.
-- Rows written before are filled from their event's data with the pattern the runtime uses at enqueue
-- (bus/people-named.ts: every uuid in the data's text), a one-off scan of the outbox.
DO $$
BEGIN
  IF to_regclass('outbox') IS NULL THEN
    RETURN;
  END IF;
  ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "people" UUID[] NOT NULL DEFAULT '{}';
  UPDATE "outbox" SET "people" = ARRAY(
    SELECT DISTINCT lower(m[1])::uuid
    FROM regexp_matches(("payload" -> 'data')::text, '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})', 'gi') AS m
  )
  WHERE "people" = '{}';
  CREATE INDEX IF NOT EXISTS "outbox_people_idx" ON "outbox" USING gin ("people");
END $$;
