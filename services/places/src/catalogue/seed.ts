import { parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageDir, type Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { barsRepository } from '../repositories/bars.repository';
import { beersRepository } from '../repositories/beers.repository';
import { menusRepository } from '../repositories/menus.repository';

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
    const col = <T>(pick: (b: Row) => T) => batch.map(pick);
    await barsRepository.upsertFromSource(prisma, {
      sourceId: col((b) => text(b.id)),
      name: col((b) => text(b.name)),
      breweryType: col((b) => text(b.brewery_type)),
      address: col((b) => [b.address_1, b.address_2, b.address_3].map(text).filter(Boolean).join(', ') || null),
      city: col((b) => text(b.city)),
      state: col((b) => text(b.state_province)),
      country: col((b) => text(b.country)),
      postalCode: col((b) => text(b.postal_code)),
      phone: col((b) => text(b.phone)),
      website: col((b) => text(b.website_url)),
      latitude: col((b) => number(b.latitude)),
      longitude: col((b) => number(b.longitude)),
    });
  }

  const breweryById = new Map(craftBreweries.map((b) => [text(b.id), { name: text(b.name), city: text(b.city) }]));
  const beers = craftBeers.filter((b) => text(b.id) && text(b.name));
  for (const batch of chunks(beers)) {
    const col = <T>(pick: (b: Row) => T) => batch.map(pick);
    await beersRepository.upsertFromSource(prisma, {
      sourceId: col((b) => text(b.id)),
      name: col((b) => text(b.name)),
      brewery: col((b) => breweryById.get(text(b.brewery_id))?.name ?? 'Unknown brewery'),
      style: col((b) => text(b.style)),
      abv: col((b) => number(b.abv)),
      ibu: col((b) => {
        const ibu = number(b.ibu);
        return ibu === null ? null : Math.round(ibu);
      }),
      ounces: col((b) => number(b.ounces)),
    });
  }

  // Menus: a bar pours the beers of the craft brewery with its name, in its city.
  const barByKey = new Map(bars.map((b) => [key(text(b.name), text(b.city)), text(b.id)]));
  const pairs = beers.flatMap((beer): Array<[string, string]> => {
    const brewery = breweryById.get(text(beer.brewery_id));
    const barId = brewery ? barByKey.get(key(brewery.name, brewery.city)) : undefined;
    return barId ? [[barId, text(beer.id) ?? '']] : [];
  });
  for (const batch of chunks(pairs)) {
    await menusRepository.pourBySource(
      prisma,
      batch.map((p) => p[0]),
      batch.map((p) => p[1]),
    );
  }
  const counts = { bars: bars.length, beers: beers.length, menus: pairs.length };
  logger.info(counts, 'catalogue loaded');
  return counts;
}
