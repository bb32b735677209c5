-- The session's version and updated_at, from its events (issue 38): until now
-- the last event delivered won, so a late create could undo an edit's beer
-- count. A newer version replaces the facts (runtime/src/db/snapshot.ts,
-- newerSnapshot); 0 for rows from events published before versions.
ALTER TABLE "session_facts"
  ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT '1970-01-01T00:00:00Z';
