import { escapeLike, executeSql, sql } from '@hoptrack/runtime';
import type { Beer, Db } from '../db';
import type { Page } from './page';

/** One batch of beers from the data sets, column by column (unnest): the n-th of each array is the n-th beer. */
export interface SourceBeers {
  sourceId: Array<string | null>;
  name: Array<string | null>;
  brewery: string[];
  style: Array<string | null>;
  abv: Array<number | null>;
  ibu: Array<number | null>;
  ounces: Array<number | null>;
}

/** All reads and writes of the beers table. */
export const beersRepository = {
  findById(db: Db, id: string): Promise<Beer | null> {
    return db.beer.findUnique({ where: { id } });
  },

  /** By name, then id; optionally of one style (any case). */
  list(db: Db, style: string | undefined, page: Page): Promise<Beer[]> {
    return db.beer.findMany({
      where: style ? { style: { equals: style, mode: 'insensitive' } } : {},
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: page.limit,
      skip: page.offset,
    });
  },

  /** Partial, case-insensitive match on name, style or brewery, optionally within one style. */
  search(db: Db, q: string, style: string | undefined, page: Page): Promise<Beer[]> {
    const pattern = escapeLike(q);
    return db.beer.findMany({
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
  },

  /** Upserts a batch of beers by their id in the source; one statement for the batch. */
  async upsertFromSource(db: Db, beers: SourceBeers): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO beers (id, source_id, name, brewery, style, abv, ibu, ounces)
       SELECT gen_random_uuid(), * FROM unnest(${beers.sourceId}::text[], ${beers.name}::text[], ${beers.brewery}::text[], ${beers.style}::text[], ${beers.abv}::float8[], ${beers.ibu}::int[], ${beers.ounces}::float8[])
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, brewery = EXCLUDED.brewery, style = EXCLUDED.style,
         abv = EXCLUDED.abv, ibu = EXCLUDED.ibu, ounces = EXCLUDED.ounces`,
    );
  },
};
