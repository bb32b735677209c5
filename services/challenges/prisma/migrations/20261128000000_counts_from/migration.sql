-- Issue 40: only what happens after joining counts. A participation counts
-- the facts in [counts_from, window_end): counts_from is the later of the
-- day's start and the moment the person joined (an accepted invitation
-- joins too). Rows from before keep the rule they were made under: their
-- whole day counts.
ALTER TABLE "user_challenges" ADD COLUMN "counts_from" TIMESTAMPTZ(6);
UPDATE "user_challenges" SET "counts_from" = "window_start";
ALTER TABLE "user_challenges" ALTER COLUMN "counts_from" SET NOT NULL;
