-- Each session's version (issue 38): incremented in the statement that edits
-- it, carried by session.created/updated.v1, and what the services keeping
-- session facts order them by. Never updated_at: that is the clock of the
-- replica that handled the edit. Existing sessions start at 1, above the 0
-- that the read models hold for events published before versions.
ALTER TABLE "beer_sessions" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
