-- auth's version of each account (issue 38): snapshots are ordered by it,
-- never by updated_at (the clock of whichever auth replica made the change).
-- 0 until the first versioned snapshot arrives: any versioned snapshot
-- replaces the row, and snapshots published before versions existed keep
-- ordering among themselves by updated_at (runtime/src/db/snapshot.ts).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "version" INTEGER NOT NULL DEFAULT 0;
