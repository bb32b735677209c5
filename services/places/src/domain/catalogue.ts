import { BAR_DETAIL_REVIEWS, type Bar as BarView, type BarDetail, type Beer as BeerView, type FoodItem as FoodView, type NearbyQuery } from '@hoptrack/proto';
import { compile, notFound } from '@hoptrack/runtime';
import type { Bar, BarFood, Beer, FoodItem, PrismaClient } from '../db';
import { barsRepository, nearbyBarsSql, type BarRow } from '../repositories/bars.repository';
import { beersRepository } from '../repositories/beers.repository';
import type { Page } from '../repositories/page';
import type { Reviews } from './reviews';

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

/**
 * The nearby search as text with numbered parameters, and its values, for the
 * bench (infra/bench/nearby.ts): the very same SQL the catalogue runs
 * (nearbyBarsSql), against `table` (a copy of bars without the index, its
 * reference). The text does not depend on the query's values.
 */
export const nearbySql = (table: string): string => compile(nearbyBarsSql(table, { lat: 0, lng: 0, radius: 0, limit: 0 })).text;
export const nearbyParams = (query: NearbyQuery): unknown[] => compile(nearbyBarsSql('bars', query)).values;

/** Reads of the bars and beers catalogue. */
export class Catalogue {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly reviews: Reviews,
  ) {}

  async bars(page: Page): Promise<BarView[]> {
    const rows = await barsRepository.list(this.prisma, page);
    return rows.map((b) => barView(b));
  }

  /** Partial, case-insensitive match on name or city; names that start with the query first, or near a point the nearest first, with distances. */
  async searchBars(q: string, page: Page, near?: { lat: number; lng: number }): Promise<BarView[]> {
    const rows = await barsRepository.search(this.prisma, q, page, near);
    return rows.map((b) => barView(b, b.miles === undefined || b.miles === null ? null : Number(b.miles)));
  }

  /**
   * Bars within `radius` metres, nearest first. The GiST index on
   * ll_to_earth(latitude, longitude) finds the candidates in a box around
   * the point (slightly larger: earthdistance's sphere is not the spec's);
   * the exact haversine distance then filters and orders them.
   */
  async nearby(query: NearbyQuery): Promise<BarView[]> {
    const rows = await barsRepository.nearby(this.prisma, query);
    return rows.map((b) => barView(b, Number(b.miles)));
  }

  /** A bar alone (no menu, no reviews); null when unknown. */
  async findBar(id: string): Promise<BarView | null> {
    const bar = await barsRepository.findById(this.prisma, id);
    return bar ? barView(bar) : null;
  }

  /** A bar with its menu (beers, food) and the newest reviews the viewer may see. */
  async bar(id: string, viewerId: string): Promise<BarDetail> {
    const bar = await barsRepository.findWithMenu(this.prisma, id);
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
    const rows = await beersRepository.list(this.prisma, style, page);
    return rows.map(beerView);
  }

  /** Partial, case-insensitive match on name, style or brewery, optionally within one style. */
  async searchBeers(q: string, style: string | undefined, page: Page): Promise<BeerView[]> {
    const rows = await beersRepository.search(this.prisma, q, style, page);
    return rows.map(beerView);
  }

  async beer(id: string): Promise<BeerView> {
    const beer = await beersRepository.findById(this.prisma, id);
    if (!beer) throw notFound('Beer not found');
    return beerView(beer);
  }
}
