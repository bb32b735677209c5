-- A comment edited by its author (issue 40): when it last was; null while
-- never edited. Set by the database's clock in the edit's statement, as
-- created_at is.
ALTER TABLE "comments" ADD COLUMN "edited_at" TIMESTAMPTZ(6);
