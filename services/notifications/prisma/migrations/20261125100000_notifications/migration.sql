-- The notifications service's tables (prisma/schema.prisma). The audience
-- tables (users, follows, blocks, mutes) are the runtime's migrations.

CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "group_key" TEXT NOT NULL,
    "target_id" UUID NOT NULL,
    "read" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notifications_user_id_updated_at_id_idx" ON "notifications"("user_id", "updated_at" DESC, "id" DESC);
CREATE INDEX "notifications_user_id_group_key_target_id_updated_at_idx" ON "notifications"("user_id", "group_key", "target_id", "updated_at" DESC);
CREATE INDEX "notifications_target_id_idx" ON "notifications"("target_id");

CREATE TABLE "notification_actors" (
    "notification_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "actor_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "notification_actors_pkey" PRIMARY KEY ("notification_id", "kind", "source_id")
);
CREATE INDEX "notification_actors_actor_id_idx" ON "notification_actors"("actor_id");
ALTER TABLE "notification_actors" ADD CONSTRAINT "notification_actors_notification_id_fkey"
    FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "pending_mails" (
    "user_id" UUID NOT NULL,
    "notification_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "pending_mails_pkey" PRIMARY KEY ("notification_id", "kind", "source_id")
);
CREATE INDEX "pending_mails_user_id_at_idx" ON "pending_mails"("user_id", "at");
ALTER TABLE "pending_mails" ADD CONSTRAINT "pending_mails_notification_id_kind_source_id_fkey"
    FOREIGN KEY ("notification_id", "kind", "source_id") REFERENCES "notification_actors"("notification_id", "kind", "source_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The address mails go to: the audience people table's one extra here (applied from auth's snapshots).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "email" TEXT;

CREATE TABLE "notification_settings" (
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "in_app" BOOLEAN NOT NULL,
    "email" BOOLEAN NOT NULL,
    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("user_id", "kind")
);

CREATE TABLE "session_refs" (
    "session_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "title" TEXT,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "session_refs_pkey" PRIMARY KEY ("session_id")
);

CREATE TABLE "session_commenters" (
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "last_comment_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "session_commenters_pkey" PRIMARY KEY ("session_id", "user_id")
);
CREATE INDEX "session_commenters_session_id_last_comment_at_idx" ON "session_commenters"("session_id", "last_comment_at" DESC);

CREATE TABLE "outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "outbox_id_key" ON "outbox"("id");
CREATE INDEX "outbox_published_at_seq_idx" ON "outbox"("published_at", "seq");

CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer", "event_id")
);
