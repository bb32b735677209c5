-- Several photos per session (issue 25): the ordered list, `photo` staying its first.
-- AlterTable
ALTER TABLE "beer_sessions" ADD COLUMN "photos" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- Sessions logged with one photo keep it as their list.
UPDATE "beer_sessions" SET "photos" = ARRAY["photo"] WHERE "photo" IS NOT NULL;
