-- The session's version, from its events (issue 38): a newer version replaces
-- the title, whatever the clocks say (runtime/src/db/snapshot.ts, newerSnapshot).
-- 0: learned from an interaction, or from events published before versions.
ALTER TABLE "session_refs" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;
