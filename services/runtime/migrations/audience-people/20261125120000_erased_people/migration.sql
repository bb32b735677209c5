-- Tombstones of deleted accounts (issue 24): sha256 of the id, never the id
-- itself, so the erasure leaves nothing that names the person. Tokens of an
-- erased person are refused (the revocation check), and late events about
-- them (published before the deletion, delivered after) are skipped instead
-- of bringing rows back (the inbox's guard). Kept: a replayed stream must
-- never resurrect anyone.
CREATE TABLE IF NOT EXISTS "erased_people" (
  "id_hash" TEXT NOT NULL,
  "erased_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "erased_people_pkey" PRIMARY KEY ("id_hash")
);
