-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "bio" TEXT,
    "avatar" TEXT,
    "profile_picture" TEXT,
    "is_profile_private" BOOLEAN NOT NULL,
    "allow_direct_messages" BOOLEAN NOT NULL,
    "show_online_status" BOOLEAN NOT NULL,
    "token_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "friendships" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "friend_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "is_pinned" BOOLEAN NOT NULL DEFAULT false,
    "is_muted" BOOLEAN NOT NULL DEFAULT false,
    "pinned_order" INTEGER,
    "blocked_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "friendships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocked_users" (
    "id" UUID NOT NULL,
    "blocker_id" UUID NOT NULL,
    "blocked_id" UUID NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocked_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_facts" (
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "beer_count" INTEGER NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "session_facts_pkey" PRIMARY KEY ("session_id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "friendships_user_id_friend_id_key" ON "friendships"("user_id", "friend_id");

-- CreateIndex
CREATE INDEX "friendships_friend_id_status_idx" ON "friendships"("friend_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "blocked_users_blocker_id_blocked_id_key" ON "blocked_users"("blocker_id", "blocked_id");

-- CreateIndex
CREATE INDEX "blocked_users_blocked_id_idx" ON "blocked_users"("blocked_id");

-- CreateIndex
CREATE INDEX "session_facts_user_id_created_at_idx" ON "session_facts"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_id_key" ON "outbox"("id");

-- CreateIndex
CREATE INDEX "outbox_published_at_seq_idx" ON "outbox"("published_at", "seq");

-- Beyond what schema.prisma can say:
-- only the two statuses exist, and nobody befriends or blocks themselves.
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_status_check" CHECK ("status" IN ('pending', 'accepted'));
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_not_self_check" CHECK ("user_id" <> "friend_id");
ALTER TABLE "blocked_users" ADD CONSTRAINT "blocked_users_not_self_check" CHECK ("blocker_id" <> "blocked_id");

-- Substring search on username and display name (ILIKE '%q%') stays fast with trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);
CREATE INDEX "users_display_name_trgm_idx" ON "users" USING gin ("display_name" gin_trgm_ops);
