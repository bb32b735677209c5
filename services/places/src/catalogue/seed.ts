import { parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageDir, type Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';

export const dataDir = path.join(packageDir('@hoptrack/places'), 'data');

type Row = Record<string, string>;
const BATCH = 1000;
/** Breweries that do not (or do not yet) pour anything are not places to go. */
const NOT_OPEN = new Set(['closed', 'planning']);

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};
const number = (value: string | undefined) => {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(n) ? n : null;
};
const key = (name: string | null, city: string | null) => `${(name ?? '').toLowerCase().replace(/\s+/g, ' ')}|${(city ?? '').toLowerCase()}`;

async function readCsv(file: string): Promise<Row[]> {
  return parse(await readFile(path.join(dataDir, file), 'utf8'), { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true });
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/**
 * Loads the catalogue from the data sets. Idempotent: rows are upserted by
 * their id in the source, so running it again changes nothing (or refreshes
 * what the files changed). Batches go in as arrays (unnest), a thousand rows
 * per statement, well under Postgres' 65,535-parameter limit.
 */
export async function seedCatalogue(prisma: PrismaClient, logger: Logger): Promise<{ bars: number; beers: number; menus: number }> {
  const [breweries, craftBeers, craftBreweries] = await Promise.all([
    readCsv('openbrewerydb-breweries.csv'),
    readCsv('craft-beers.csv'),
    readCsv('craft-breweries.csv'),
  ]);

  const bars = breweries.filter((b) => text(b.id) && text(b.name) && !NOT_OPEN.has(b.brewery_type ?? ''));
  for (const batch of chunks(bars)) {
    const col = (pick: (b: Row) => string | number | null) => batch.map(pick);
    await prisma.$executeRawUnsafe(
      `INSERT INTO bars (id, source_id, name, brewery_type, address, city, state, country, postal_code, phone, website, latitude, longitude)
       SELECT gen_random_uuid(), * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                                                $8::text[], $9::text[], $10::text[], $11::float8[], $12::float8[])
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, brewery_type = EXCLUDED.brewery_type, address = EXCLUDED.address,
         city = EXCLUDED.city, state = EXCLUDED.state, country = EXCLUDED.country, postal_code = EXCLUDED.postal_code,
         phone = EXCLUDED.phone, website = EXCLUDED.website, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude`,
      col((b) => text(b.id)),
      col((b) => text(b.name)),
      col((b) => text(b.brewery_type)),
      col((b) => [b.address_1, b.address_2, b.address_3].map(text).filter(Boolean).join(', ') || null),
      col((b) => text(b.city)),
      col((b) => text(b.state_province)),
      col((b) => text(b.country)),
      col((b) => text(b.postal_code)),
      col((b) => text(b.phone)),
      col((b) => text(b.website_url)),
      col((b) => number(b.latitude)),
      col((b) => number(b.longitude)),
    );
  }

  const breweryById = new Map(craftBreweries.map((b) => [text(b.id), { name: text(b.name), city: text(b.city) }]));
  const beers = craftBeers.filter((b) => text(b.id) && text(b.name));
  for (const batch of chunks(beers)) {
    const col = (pick: (b: Row) => string | number | null) => batch.map(pick);
    await prisma.$executeRawUnsafe(
      `INSERT INTO beers (id, source_id, name, brewery, style, abv, ibu, ounces)
       SELECT gen_random_uuid(), * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::int[], $7::float8[])
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, brewery = EXCLUDED.brewery, style = EXCLUDED.style,
         abv = EXCLUDED.abv, ibu = EXCLUDED.ibu, ounces = EXCLUDED.ounces`,
      col((b) => text(b.id)),
      col((b) => text(b.name)),
      col((b) => breweryById.get(text(b.brewery_id))?.name ?? 'Unknown brewery'),
      col((b) => text(b.style)),
      col((b) => number(b.abv)),
      col((b) => {
        const ibu = number(b.ibu);
        return ibu === null ? null : Math.round(ibu);
      }),
      col((b) => number(b.ounces)),
    );
  }

  // Menus: a bar pours the beers of the craft brewery with its name, in its city.
  const barByKey = new Map(bars.map((b) => [key(text(b.name), text(b.city)), text(b.id)]));
  const pairs = beers.flatMap((beer) => {
    const brewery = breweryById.get(text(beer.brewery_id));
    const barId = brewery ? barByKey.get(key(brewery.name, brewery.city)) : undefined;
    return barId ? [[barId, text(beer.id) ?? '']] : [];
  });
  for (const batch of chunks(pairs)) {
    await prisma.$executeRawUnsafe(
      `INSERT INTO bar_beers (bar_id, beer_id)
       SELECT b.id, be.id FROM unnest($1::text[], $2::text[]) AS m(bar_source, beer_source)
       JOIN bars b ON b.source_id = m.bar_source JOIN beers be ON be.source_id = m.beer_source
       ON CONFLICT DO NOTHING`,
      batch.map((p) => p[0]),
      batch.map((p) => p[1]),
    );
  }
  const counts = { bars: bars.length, beers: beers.length, menus: pairs.length };
  logger.info(counts, 'catalogue loaded');
  return counts;
}
