-- The staff roles (issue 42): moderator and admin, granted by an operator
-- command (npm run staff -w @hoptrack/auth) or by an admin in the console.
-- They travel in the user.* snapshots to every service's people table.
ALTER TABLE "users" ADD COLUMN "roles" TEXT[] NOT NULL DEFAULT '{}';

-- A moderator's restriction of the account (issue 42, item 4): suspended
-- until a time, or banned until an unban. Carried in the snapshots; every
-- service refuses the person's tokens while either holds.
ALTER TABLE "users" ADD COLUMN "suspended_until" TIMESTAMPTZ(6);
ALTER TABLE "users" ADD COLUMN "banned" BOOLEAN NOT NULL DEFAULT false;

-- Every action a moderator took on an account, with the reason the person
-- is told: the person's notices (GET /api/me/actions), the author's history
-- in the queue, and the audit. An action goes with the account it concerns
-- (erasure); a deleted moderator's actions stay, without their name.
CREATE TABLE "moderation_actions" (
    "id" UUID NOT NULL,
    "subject_id" UUID NOT NULL,
    "moderator_id" UUID,
    "action" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "days" INTEGER,
    "ends_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "moderation_actions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "moderation_actions_subject_id_created_at_idx" ON "moderation_actions"("subject_id", "created_at");
CREATE INDEX "moderation_actions_moderator_id_idx" ON "moderation_actions"("moderator_id");
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_subject_id_fkey" FOREIGN KEY ("subject_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_moderator_id_fkey" FOREIGN KEY ("moderator_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
