-- CreateTable
CREATE TABLE "bars" (
    "id" UUID NOT NULL,
    "source_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "brewery_type" TEXT,
    "address" TEXT,
    "city" TEXT,
    "state" TEXT,
    "country" TEXT,
    "postal_code" TEXT,
    "phone" TEXT,
    "website" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "description" TEXT,
    "image_url" TEXT,
    "rating" DOUBLE PRECISION,
    "price_range" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bars_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "beers" (
    "id" UUID NOT NULL,
    "source_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "brewery" TEXT NOT NULL,
    "style" TEXT,
    "abv" DOUBLE PRECISION,
    "ibu" INTEGER,
    "ounces" DOUBLE PRECISION,
    "description" TEXT,
    "image_url" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "beers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bar_beers" (
    "bar_id" UUID NOT NULL,
    "beer_id" UUID NOT NULL,
    "price" DOUBLE PRECISION,
    "is_available" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "bar_beers_pkey" PRIMARY KEY ("bar_id","beer_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "bars_source_id_key" ON "bars"("source_id");

-- CreateIndex
CREATE UNIQUE INDEX "beers_source_id_key" ON "beers"("source_id");

-- CreateIndex
CREATE INDEX "beers_style_idx" ON "beers"("style");

-- CreateIndex
CREATE INDEX "bar_beers_beer_id_idx" ON "bar_beers"("beer_id");

-- AddForeignKey
ALTER TABLE "bar_beers" ADD CONSTRAINT "bar_beers_bar_id_fkey" FOREIGN KEY ("bar_id") REFERENCES "bars"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bar_beers" ADD CONSTRAINT "bar_beers_beer_id_fkey" FOREIGN KEY ("beer_id") REFERENCES "beers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond schema.prisma:
-- nearby search: a GiST index on the point as an earth-centred cube, so
-- earth_box(...) @> ll_to_earth(...) finds the candidates of a radius without scanning the table.
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE INDEX "bars_location_earth_idx" ON "bars" USING gist (ll_to_earth("latitude", "longitude"))
    WHERE "latitude" IS NOT NULL AND "longitude" IS NOT NULL;
-- text search on partial names, cities and styles.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "bars_name_trgm_idx" ON "bars" USING gin ("name" gin_trgm_ops);
CREATE INDEX "bars_city_trgm_idx" ON "bars" USING gin ("city" gin_trgm_ops);
CREATE INDEX "beers_name_trgm_idx" ON "beers" USING gin ("name" gin_trgm_ops);
CREATE INDEX "beers_style_trgm_idx" ON "beers" USING gin ("style" gin_trgm_ops);
