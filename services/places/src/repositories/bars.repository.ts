import { EARTH_RADIUS_MILES, type NearbyQuery } from '@hoptrack/proto';
import { escapeLike, executeSql, identifier, queryRows, sql, type Sql } from '@hoptrack/runtime';
import type { Bar, BarBeer, BarFood, Beer, Db, FoodItem } from '../db';
import type { Page } from './page';

const METRES_PER_MILE = 1609.344;

/** A bars row as raw SQL answers it; `miles` on the nearby search. */
export interface BarRow {
  id: string;
  name: string;
  brewery_type: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  phone: string | null;
  website: string | null;
  latitude: number | null;
  longitude: number | null;
  rating: number | null;
  price_range: number | null;
  miles?: number;
}

export type BarWithMenu = Bar & { beers: Array<BarBeer & { beer: Beer }>; food: Array<BarFood & { foodItem: FoodItem }> };

type Column<T> = Array<T | null>;

/** One batch of bars from the data sets, column by column (unnest): the n-th of each array is the n-th bar. */
export type SourceBars = Record<
  'sourceId' | 'name' | 'breweryType' | 'address' | 'city' | 'state' | 'country' | 'postalCode' | 'phone' | 'website',
  Column<string>
> &
  Record<'latitude' | 'longitude', Column<number>>;

/** Great-circle miles on the spec's sphere (radius 3959), as SQL over the row's columns and the given point. */
const haversineSql = (lat: number, lng: number): Sql =>
  sql`(2 * ${EARTH_RADIUS_MILES}::float8 * asin(sqrt(power(sin(radians(latitude - ${lat}) / 2), 2)
     + cos(radians(${lat})) * cos(radians(latitude)) * power(sin(radians(longitude - ${lng}) / 2), 2))))`;

/**
 * The nearby search: the GiST index on ll_to_earth narrows to a box around
 * the point (slightly larger: earthdistance's sphere is not the spec's),
 * haversine keeps the bars truly inside the radius. With its table as a
 * parameter so the bench runs the very same text against a copy of the
 * table without the index (its reference; see nearbySql in domain/catalogue).
 */
export function nearbyBarsSql(table: string, query: NearbyQuery): Sql {
  return sql`SELECT * FROM (
     SELECT *, ${haversineSql(query.lat, query.lng)} AS miles FROM ${identifier(table)}
     WHERE latitude IS NOT NULL AND longitude IS NOT NULL
       AND earth_box(ll_to_earth(${query.lat}, ${query.lng}), ${query.radius} * 1.01) @> ll_to_earth(latitude, longitude)
   ) candidates
   WHERE miles <= ${query.radius / METRES_PER_MILE} ORDER BY miles, id LIMIT ${query.limit}`;
}

/** All reads and writes of the bars table. */
export const barsRepository = {
  count(db: Db): Promise<number> {
    return db.bar.count();
  },

  /** By name, then id. */
  list(db: Db, page: Page): Promise<Bar[]> {
    return db.bar.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }], take: page.limit, skip: page.offset });
  },

  /**
   * Partial, case-insensitive match on name or city; names that start with
   * the query first. Near a point, the nearest first instead (each with its
   * `miles`; bars without coordinates last): a person typing "brew" wants the
   * brewery down the road, not the first one in the alphabet.
   */
  search(db: Db, q: string, page: Page, near?: { lat: number; lng: number }): Promise<BarRow[]> {
    const pattern = `%${escapeLike(q)}%`;
    const prefix = `${escapeLike(q)}%`;
    const matches = sql`name ILIKE ${pattern} OR city ILIKE ${pattern}`;
    if (near) {
      return queryRows<BarRow[]>(
        db,
        sql`SELECT *, ${haversineSql(near.lat, near.lng)} AS miles FROM bars WHERE ${matches}
         ORDER BY miles ASC NULLS LAST, (name ILIKE ${prefix}) DESC, name, id LIMIT ${page.limit} OFFSET ${page.offset}`,
      );
    }
    return queryRows<BarRow[]>(db, sql`SELECT * FROM bars WHERE ${matches} ORDER BY (name ILIKE ${prefix}) DESC, name, id LIMIT ${page.limit} OFFSET ${page.offset}`);
  },

  /** Bars within `query.radius` metres of the point, nearest first, each with its distance in `miles`. */
  nearby(db: Db, query: NearbyQuery): Promise<BarRow[]> {
    return queryRows<BarRow[]>(db, nearbyBarsSql('bars', query));
  },

  findById(db: Db, id: string): Promise<Bar | null> {
    return db.bar.findUnique({ where: { id } });
  },

  /** The bar with what it pours (beers) and serves (food). */
  findWithMenu(db: Db, id: string): Promise<BarWithMenu | null> {
    return db.bar.findUnique({
      where: { id },
      include: { beers: { include: { beer: true } }, food: { include: { foodItem: true } } },
    });
  },

  /** Whether the bar exists; with `lock`, its row is locked for the rest of the transaction. */
  async exists(db: Db, id: string, options: { lock?: boolean } = {}): Promise<boolean> {
    const rows = await queryRows<unknown[]>(db, sql`SELECT 1 FROM bars WHERE id = ${id}::uuid${options.lock ? sql` FOR UPDATE` : sql``}`);
    return rows.length > 0;
  },

  /** The first `limit` bars (by source id) that pour beers of their own: the demo menus' bars. */
  async idsOfBarsWithBeers(db: Db, limit: number): Promise<string[]> {
    const bars = await db.bar.findMany({ where: { beers: { some: {} } }, orderBy: { sourceId: 'asc' }, take: limit, select: { id: true } });
    return bars.map((bar) => bar.id);
  },

  /** A bar's rating is the mean of its reviews to one decimal; none left: no rating. */
  async refreshRating(db: Db, id: string): Promise<void> {
    await executeSql(
      db,
      sql`UPDATE bars SET rating = (SELECT round(avg(rating)::numeric, 1)::float8 FROM bar_reviews WHERE bar_id = ${id}::uuid) WHERE id = ${id}::uuid`,
    );
  },

  /**
   * Locks the bars `userId` reviewed, in id order (as a review's create or
   * delete locks its bar), and answers their ids.
   */
  async lockReviewedBy(db: Db, userId: string): Promise<string[]> {
    const bars = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT b.id::text AS id FROM bars b WHERE b.id IN (SELECT bar_id FROM bar_reviews WHERE user_id = ${userId}::uuid) ORDER BY b.id FOR UPDATE OF b`,
    );
    return bars.map((bar) => bar.id);
  },

  /** Upserts a batch of bars by their id in the source; one statement for the batch. */
  async upsertFromSource(db: Db, bars: SourceBars): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO bars (id, source_id, name, brewery_type, address, city, state, country, postal_code, phone, website, latitude, longitude)
       SELECT gen_random_uuid(), * FROM unnest(${bars.sourceId}::text[], ${bars.name}::text[], ${bars.breweryType}::text[], ${bars.address}::text[], ${bars.city}::text[], ${bars.state}::text[], ${bars.country}::text[],
                                                ${bars.postalCode}::text[], ${bars.phone}::text[], ${bars.website}::text[], ${bars.latitude}::float8[], ${bars.longitude}::float8[])
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, brewery_type = EXCLUDED.brewery_type, address = EXCLUDED.address,
         city = EXCLUDED.city, state = EXCLUDED.state, country = EXCLUDED.country, postal_code = EXCLUDED.postal_code,
         phone = EXCLUDED.phone, website = EXCLUDED.website, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude`,
    );
  },
};
