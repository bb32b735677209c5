-- Data exports (issue 24): media assembles each export's zip once every
-- service contributed its part (user.export.contributed.v1). One row per
-- export: who it is for, the services whose parts are in, and whether the
-- zip was built ('collecting' until then, 'done' after; the row lock taken
-- while building keeps a second replica or a redelivery from building it twice).
CREATE TABLE "export_assemblies" (
    "export_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "services" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'collecting',
    "key" TEXT,
    "size" BIGINT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "assembled_at" TIMESTAMPTZ(6),

    CONSTRAINT "export_assemblies_pkey" PRIMARY KEY ("export_id"),
    CONSTRAINT "export_assemblies_status_check" CHECK ("status" IN ('collecting', 'done'))
);

CREATE INDEX "export_assemblies_user_id_idx" ON "export_assemblies"("user_id");
