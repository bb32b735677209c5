-- The session's version, from its events (issue 38): a newer version replaces
-- the facts, whatever the clocks say (runtime/src/db/snapshot.ts, newerSnapshot).
-- 0: known only from events published before versions.
ALTER TABLE "session_facts" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;
