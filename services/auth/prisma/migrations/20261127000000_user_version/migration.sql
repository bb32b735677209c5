-- Each account's version (issue 38): incremented in the statement that makes
-- a change, carried by its user.* snapshot, and what the other services order
-- snapshots by. Never updated_at: that is the clock of the replica that
-- handled the change. Existing accounts start at 1, above the 0 that the
-- read models hold for snapshots published before versions.
ALTER TABLE "users" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
