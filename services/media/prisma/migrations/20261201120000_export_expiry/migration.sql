-- An export's zip has a lifetime (issue 39, finding 9): media deletes it at
-- "expires_at", or sooner when a newer export of the person replaces it.
-- Zips built before this get the 48 hours auth gave them then.
ALTER TABLE "export_assemblies" ADD COLUMN "expires_at" TIMESTAMPTZ(6);
UPDATE "export_assemblies" SET "expires_at" = "assembled_at" + interval '48 hours' WHERE "status" = 'done';

-- The expiry pass finds the zips past their time without reading every row.
CREATE INDEX "export_assemblies_expires_at_idx" ON "export_assemblies"("expires_at");
