import { BAR_DETAIL_REVIEWS, EARTH_RADIUS_MILES, type Bar as BarView, type BarDetail, type Beer as BeerView, type FoodItem as FoodView, type NearbyQuery } from '@hoptrack/proto';
import { escapeLike, notFound } from '@hoptrack/runtime';
import type { Bar, BarFood, Beer, FoodItem, PrismaClient } from '../db';
import type { Reviews } from './reviews';

const METRES_PER_MILE = 1609.344;

interface Page {
  limit: number;
  offset: number;
}

interface BarRow {
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

function barView(bar: BarRow | Bar, miles: number | null = null): BarView {
  const row = 'brewery_type' in bar ? bar : { ...bar, brewery_type: bar.breweryType, price_range: bar.priceRange };
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    city: row.city,
    state: row.state,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    phone: row.phone,
    website: row.website,
    rating: row.rating,
    priceRange: row.price_range,
    isOpen: null,
    distance: miles === null ? null : Math.round(miles * 10) / 10,
    types: ['bar', 'brewery', ...(row.brewery_type ? [row.brewery_type] : [])],
  };
}

function beerView(beer: Beer): BeerView {
  return {
    id: beer.id,
    name: beer.name,
    brewery: beer.brewery,
    style: beer.style,
    abv: beer.abv,
    ibu: beer.ibu,
    description: beer.description,
    image_url: beer.imageUrl,
  };
}

function foodView(entry: BarFood & { foodItem: FoodItem }): FoodView {
  const { foodItem: item } = entry;
  return {
    id: item.id,
    name: item.name,
    category: item.category,
    description: item.description,
    imageUrl: item.imageUrl,
    allergens: item.allergens,
    price: entry.price,
    isAvailable: entry.isAvailable,
  };
}

/** Great-circle miles on the spec's sphere (radius 3959), as SQL over columns or parameters. */
const haversineSql = (lat: string, lng: string) =>
  `(2 * ${EARTH_RADIUS_MILES} * asin(sqrt(power(sin(radians(latitude - ${lat}) / 2), 2)
     + cos(radians(${lat})) * cos(radians(latitude)) * power(sin(radians(longitude - ${lng}) / 2), 2))))`;

/**
 * The nearby search: the GiST index on ll_to_earth narrows to a box around
 * the point, haversine keeps the bars truly inside the radius. Exported with
 * its table as a parameter so the bench runs the very same text against a
 * copy of the table without the index (its reference).
 */
export const nearbySql = (table: string) =>
  `SELECT * FROM (
     SELECT *, ${haversineSql('$1', '$2')} AS miles FROM ${table}
     WHERE latitude IS NOT NULL AND longitude IS NOT NULL
       AND earth_box(ll_to_earth($1, $2), $3 * 1.01) @> ll_to_earth(latitude, longitude)
   ) candidates
   WHERE miles <= $4 ORDER BY miles, id LIMIT $5`;
export const nearbyParams = (query: NearbyQuery) => [query.lat, query.lng, query.radius, query.radius / METRES_PER_MILE, query.limit] as const;

/** Reads of the bars and beers catalogue. */
export class Catalogue {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly reviews: Reviews,
  ) {}

  async bars(page: Page): Promise<BarView[]> {
    const rows = await this.prisma.bar.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }], take: page.limit, skip: page.offset });
    return rows.map((b) => barView(b));
  }

  /** Partial, case-insensitive match on name or city; names that start with the query first. */
  async searchBars(q: string, page: Page): Promise<BarView[]> {
    const rows = await this.prisma.$queryRawUnsafe<BarRow[]>(
      `SELECT * FROM bars WHERE name ILIKE $1 OR city ILIKE $1
       ORDER BY (name ILIKE $2) DESC, name, id LIMIT $3 OFFSET $4`,
      `%${escapeLike(q)}%`,
      `${escapeLike(q)}%`,
      page.limit,
      page.offset,
    );
    return rows.map((b) => barView(b));
  }

  /**
   * Bars within `radius` metres, nearest first. The GiST index on
   * ll_to_earth(latitude, longitude) finds the candidates in a box around
   * the point (slightly larger: earthdistance's sphere is not the spec's);
   * the exact haversine distance then filters and orders them.
   */
  async nearby(query: NearbyQuery): Promise<BarView[]> {
    const rows = await this.prisma.$queryRawUnsafe<BarRow[]>(nearbySql('bars'), ...nearbyParams(query));
    return rows.map((b) => barView(b, Number(b.miles)));
  }

  /** A bar alone (no menu, no reviews); null when unknown. */
  async findBar(id: string): Promise<BarView | null> {
    const bar = await this.prisma.bar.findUnique({ where: { id } });
    return bar ? barView(bar) : null;
  }

  /** A bar with its menu (beers, food) and the newest reviews the viewer may see. */
  async bar(id: string, viewerId: string): Promise<BarDetail> {
    const bar = await this.prisma.bar.findUnique({
      where: { id },
      include: { beers: { include: { beer: true } }, food: { include: { foodItem: true } } },
    });
    if (!bar) throw notFound('Bar not found');
    const [reviews, reviewCount] = await Promise.all([
      this.reviews.list(id, viewerId, { limit: BAR_DETAIL_REVIEWS, offset: 0 }),
      this.reviews.count(id, viewerId),
    ]);
    return {
      ...barView(bar),
      beers: bar.beers.map((entry) => beerView(entry.beer)).sort((a, b) => a.name.localeCompare(b.name)),
      food: bar.food.map(foodView).sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.name.localeCompare(b.name)),
      reviews,
      reviewCount,
    };
  }

  async beers(style: string | undefined, page: Page): Promise<BeerView[]> {
    const rows = await this.prisma.beer.findMany({
      where: style ? { style: { equals: style, mode: 'insensitive' } } : {},
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: page.limit,
      skip: page.offset,
    });
    return rows.map(beerView);
  }

  /** Partial, case-insensitive match on name, style or brewery, optionally within one style. */
  async searchBeers(q: string, style: string | undefined, page: Page): Promise<BeerView[]> {
    const pattern = escapeLike(q);
    const rows = await this.prisma.beer.findMany({
      where: {
        OR: [
          { name: { contains: pattern, mode: 'insensitive' } },
          { style: { contains: pattern, mode: 'insensitive' } },
          { brewery: { contains: pattern, mode: 'insensitive' } },
        ],
        ...(style ? { style: { equals: style, mode: 'insensitive' } } : {}),
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: page.limit,
      skip: page.offset,
    });
    return rows.map(beerView);
  }

  async beer(id: string): Promise<BeerView> {
    const beer = await this.prisma.beer.findUnique({ where: { id } });
    if (!beer) throw notFound('Beer not found');
    return beerView(beer);
  }
}
