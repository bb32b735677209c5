-- Issue 23: daily challenges, people in them, invitations, and the facts progress is computed from.
CREATE TABLE "daily_challenges" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "target_value" INTEGER NOT NULL,
    "challenge_type" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "daily_challenges_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "daily_challenges_date_challenge_type_key" ON "daily_challenges"("date", "challenge_type");

CREATE TABLE "user_challenges" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "is_completed" BOOLEAN NOT NULL DEFAULT false,
    "completed_at" TIMESTAMPTZ(6),
    "time_zone" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(6) NOT NULL,
    "window_end" TIMESTAMPTZ(6) NOT NULL,
    "joined_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_challenges_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "user_challenges_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "daily_challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "user_challenges_user_id_challenge_id_key" ON "user_challenges"("user_id", "challenge_id");
CREATE INDEX "user_challenges_challenge_id_idx" ON "user_challenges"("challenge_id");
CREATE INDEX "user_challenges_user_id_is_completed_window_end_idx" ON "user_challenges"("user_id", "is_completed", "window_end");

CREATE TABLE "challenge_invitations" (
    "id" UUID NOT NULL,
    "from_user_id" UUID NOT NULL,
    "to_user_id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "responded_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "challenge_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "challenge_invitations_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "daily_challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "challenge_invitations_challenge_id_from_user_id_to_user_id_key" ON "challenge_invitations"("challenge_id", "from_user_id", "to_user_id");
CREATE INDEX "challenge_invitations_to_user_id_created_at_idx" ON "challenge_invitations"("to_user_id", "created_at" DESC);
CREATE INDEX "challenge_invitations_from_user_id_created_at_idx" ON "challenge_invitations"("from_user_id", "created_at" DESC);

CREATE TABLE "session_facts" (
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "beer_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "place" TEXT,
    "has_music" BOOLEAN NOT NULL DEFAULT false,
    "beer_count" INTEGER NOT NULL,
    "duration" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "session_facts_pkey" PRIMARY KEY ("session_id")
);
CREATE INDEX "session_facts_user_id_created_at_idx" ON "session_facts"("user_id", "created_at");

CREATE TABLE "review_facts" (
    "review_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "review_facts_pkey" PRIMARY KEY ("review_id")
);
CREATE INDEX "review_facts_user_id_created_at_idx" ON "review_facts"("user_id", "created_at");

CREATE TABLE "photo_facts" (
    "photo_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "photo_facts_pkey" PRIMARY KEY ("photo_id")
);
CREATE INDEX "photo_facts_user_id_created_at_idx" ON "photo_facts"("user_id", "created_at");

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
