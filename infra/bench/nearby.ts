import { EARTH_RADIUS_MILES } from '@hoptrack/proto';
import { createLogger } from '@hoptrack/runtime';
import { placesConfigSchema } from '../../services/places/src/config';
import { openDatabase } from '../../services/places/src/connections';
import { Catalogue } from '../../services/places/src/domain/catalogue';
import { Reviews } from '../../services/places/src/domain/reviews';
import { formatStats, measure, type Stats } from './machine';

/**
 * Nearby search over the full seeded catalogue: the indexed query the API
 * runs, side by side with the reference it must agree with — a full scan
 * computing haversine for every bar.
 */
export async function benchNearby(runs: number): Promise<Array<[string, Stats]>> {
  const config = placesConfigSchema.parse({
    ...process.env,
    DATABASE_URL: process.env.BENCH_PLACES_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/hoptrack_places_bench',
  });
  const prisma = await openDatabase(config, createLogger('bench', 'warn'));
  try {
    const catalogue = new Catalogue(prisma, new Reviews(prisma));
    const points = await prisma.bar.findMany({ where: { latitude: { not: null } }, select: { latitude: true, longitude: true }, take: 400 });
    // Deterministic spread of query points: seeded bars, nudged a little.
    const at = (i: number) => {
      const p = points[(i * 37) % points.length]!;
      return { lat: (p.latitude ?? 0) + ((i % 7) - 3) * 0.01, lng: (p.longitude ?? 0) + ((i % 5) - 2) * 0.01 };
    };
    const indexed = await measure(runs, (i) => catalogue.nearby({ ...at(i), radius: 5000, limit: 20 }));
    const scan = await measure(Math.max(20, Math.floor(runs / 10)), (i) => {
      const { lat, lng } = at(i);
      return prisma.$queryRawUnsafe(
        `SELECT id FROM (SELECT id, 2 * ${EARTH_RADIUS_MILES} * asin(sqrt(power(sin(radians(latitude - $1) / 2), 2)
           + cos(radians($1)) * cos(radians(latitude)) * power(sin(radians(longitude - $2) / 2), 2))) AS miles
         FROM bars WHERE latitude IS NOT NULL) s WHERE miles <= $3 ORDER BY miles LIMIT 20`,
        lat,
        lng,
        5000 / 1609.344,
      );
    });
    return [
      [`places nearby, GiST earth_box (${await prisma.bar.count()} bars, r=5 km)`, indexed],
      ['  reference: full scan with haversine', scan],
    ];
  } finally {
    await prisma.$disconnect();
  }
}

export { formatStats };
