-- CreateTable
CREATE TABLE "food_items" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT,
    "description" TEXT,
    "image_url" TEXT,
    "allergens" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "food_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bar_food" (
    "bar_id" UUID NOT NULL,
    "food_item_id" UUID NOT NULL,
    "price" DOUBLE PRECISION,
    "is_available" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "bar_food_pkey" PRIMARY KEY ("bar_id","food_item_id")
);

-- CreateTable
CREATE TABLE "bar_reviews" (
    "id" UUID NOT NULL,
    "bar_id" UUID NOT NULL,
    "user_id" UUID,
    "author_name" TEXT,
    "rating" INTEGER NOT NULL,
    "review_text" TEXT,
    "source" TEXT NOT NULL DEFAULT 'hoptrack',
    "source_id" TEXT,
    "source_url" TEXT,
    "review_date" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "helpful_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "bar_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_helpfulness" (
    "review_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "is_helpful" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_helpfulness_pkey" PRIMARY KEY ("review_id","user_id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "profile_picture" TEXT,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocks" (
    "blocker_id" UUID NOT NULL,
    "blocked_id" UUID NOT NULL,

    CONSTRAINT "blocks_pkey" PRIMARY KEY ("blocker_id","blocked_id")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE INDEX "bar_food_food_item_id_idx" ON "bar_food"("food_item_id");

-- CreateIndex
CREATE INDEX "bar_reviews_bar_id_review_date_idx" ON "bar_reviews"("bar_id", "review_date" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "bar_reviews_bar_id_user_id_key" ON "bar_reviews"("bar_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "bar_reviews_source_source_id_key" ON "bar_reviews"("source", "source_id");

-- CreateIndex
CREATE INDEX "blocks_blocked_id_idx" ON "blocks"("blocked_id");

-- AddForeignKey
ALTER TABLE "bar_food" ADD CONSTRAINT "bar_food_bar_id_fkey" FOREIGN KEY ("bar_id") REFERENCES "bars"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bar_food" ADD CONSTRAINT "bar_food_food_item_id_fkey" FOREIGN KEY ("food_item_id") REFERENCES "food_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bar_reviews" ADD CONSTRAINT "bar_reviews_bar_id_fkey" FOREIGN KEY ("bar_id") REFERENCES "bars"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_helpfulness" ADD CONSTRAINT "review_helpfulness_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "bar_reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;
