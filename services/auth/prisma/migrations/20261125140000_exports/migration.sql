-- Issue 24, item 3: a person's data exports. The zip itself is media's (S3,
-- exports/<user>/<id>.zip); this row is who asked, when it was ready, until
-- when it may be downloaded.
CREATE TABLE "exports" (
  "id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "requested_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "ready_at" TIMESTAMPTZ(6),
  "expires_at" TIMESTAMPTZ(6),
  "zip_key" TEXT,
  "size" INTEGER,
  CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "exports_user_id_requested_at_idx" ON "exports"("user_id", "requested_at" DESC);
