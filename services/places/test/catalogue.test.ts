import { EARTH_RADIUS_MILES } from '@hoptrack/proto';
import { assertSchemaMatchesDatabase, memoryLogger } from '@hoptrack/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoMenus } from '../src/catalogue/demo-menus';
import { seedCatalogue } from '../src/catalogue/seed';
import { databaseUrl, startTestPlaces, type TestPlaces } from './support';

let places: TestPlaces;
beforeAll(async () => {
  places = await startTestPlaces();
});
afterAll(() => places.close());

/** The reference: haversine over every seeded bar, no index, no SQL. */
function bruteForceNearby(bars: Array<{ id: string; latitude: number; longitude: number }>, lat: number, lng: number, radiusM: number) {
  const rad = (d: number) => (d * Math.PI) / 180;
  return bars
    .map((b) => {
      const h = Math.sin(rad(b.latitude - lat) / 2) ** 2 + Math.cos(rad(lat)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - lng) / 2) ** 2;
      return { id: b.id, miles: 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h)) };
    })
    .filter((b) => b.miles <= radiusM / 1609.344)
    .sort((a, b) => a.miles - b.miles || a.id.localeCompare(b.id));
}

describe('the seeded catalogue', () => {
  it('holds the real bars, beers and menus, and seeding again changes nothing', async () => {
    const count = async () => ({ bars: await places.prisma.bar.count(), beers: await places.prisma.beer.count(), menus: await places.prisma.barBeer.count() });
    const before = await count();
    expect(before.bars).toBeGreaterThan(10_000);
    expect(before.beers).toBe(2410);
    expect(before.menus).toBeGreaterThan(100);
    await seedCatalogue(places.prisma, memoryLogger('seed').logger);
    expect(await count()).toEqual(before);
  });

  it('puts the demo pub menu on brewpubs when asked, idempotently', async () => {
    await seedDemoMenus(places.prisma, memoryLogger('seed').logger);
    const first = await places.prisma.barFood.count();
    await seedDemoMenus(places.prisma, memoryLogger('seed').logger);
    expect(await places.prisma.barFood.count()).toBe(first);
    const brewpub = await places.prisma.barFood.findFirstOrThrow({ select: { barId: true } });
    const food = (await places.get(`/api/bars/${brewpub.barId}`)).json().food;
    expect(food).toHaveLength(5);
    expect(food[0]).toMatchObject({ category: 'Mains', price: expect.any(Number), isAvailable: true });
  });

  it('matches schema.prisma', async () => {
    await expect(assertSchemaMatchesDatabase(fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url)), databaseUrl)).resolves.toBeUndefined();
  });
});

describe('GET /api/bars/nearby', () => {
  it.each([
    ['Kronach, Bavaria', 50.2412, 11.3277, 5000],
    ['Denver', 39.7392, -104.9903, 5000],
    ['Portland, Oregon', 45.5152, -122.6784, 3000],
    ['San Diego, wide', 32.7157, -117.1611, 20000],
  ])('returns the true nearest bars around %s, with distances right to 0.1 mile', async (_place, lat, lng, radius) => {
    const all = (await places.prisma.bar.findMany({ where: { latitude: { not: null }, longitude: { not: null } }, select: { id: true, latitude: true, longitude: true } })) as Array<{
      id: string;
      latitude: number;
      longitude: number;
    }>;
    const expected = bruteForceNearby(all, lat, lng, radius).slice(0, 20);
    const res = await places.get(`/api/bars/nearby?lat=${lat}&lng=${lng}&radius=${radius}`);
    expect(res.statusCode).toBe(200);
    const got = res.json() as Array<{ id: string; distance: number }>;
    expect(got.map((b) => b.id)).toEqual(expected.map((b) => b.id));
    got.forEach((b, i) => expect(Math.abs(b.distance - expected[i]!.miles)).toBeLessThanOrEqual(0.05 + 1e-9));
    expect(got.length).toBeGreaterThan(0);
  });

  it('searches 2000 m when no radius is given (spec section 9), here and through the Places proxy', async () => {
    const [lat, lng] = [50.2412, 11.3277];
    const all = await places.prisma.bar.findMany({ where: { latitude: { not: null }, longitude: { not: null } }, select: { id: true, latitude: true, longitude: true } });
    const located = all.flatMap((b) => (b.latitude !== null && b.longitude !== null ? [{ id: b.id, latitude: b.latitude, longitude: b.longitude }] : []));
    const within = (metres: number) => bruteForceNearby(located, lat, lng, metres).map((b) => b.id);
    // The place is chosen so the answer tells the radii apart: some bars lie between 2000 and 5000 m.
    expect(within(2000).length).toBeGreaterThan(0);
    expect(within(2000).length).toBeLessThan(Math.min(50, within(5000).length));
    const got = (await places.get(`/api/bars/nearby?lat=${lat}&lng=${lng}&limit=50`)).json() as Array<{ id: string }>;
    expect(got.map((b) => b.id)).toEqual(within(2000));
    const proxied = (await places.get(`/api/google-places/nearby?lat=${lat}&lng=${lng}`)).json() as { results: Array<{ place_id: string }> };
    expect(proxied.results.map((p) => p.place_id)).toEqual(within(2000).slice(0, 20));
  });

  it('finds nothing in the middle of the ocean', async () => {
    expect((await places.get('/api/bars/nearby?lat=0&lng=-30')).json()).toEqual([]);
  });

  it.each([
    ['lat=91&lng=0', 'lat', 'lat must be between -90 and 90'],
    ['lat=0&lng=-181', 'lng', 'lng must be between -180 and 180'],
    ['lat=abc&lng=0', 'lat', 'lat must be a number'],
    ['lng=0', 'lat', 'lat is required'],
    ['lat=0&lng=0&radius=0', 'radius', 'radius must be greater than 0'],
    ['lat=0&lng=0&radius=-5', 'radius', 'radius must be greater than 0'],
    ['lat=0&lng=0&radius=50001', 'radius', 'radius must be at most 50000 metres'],
  ])('refuses %s with 400', async (query, field, message) => {
    const res = await places.get(`/api/bars/nearby?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field, message });
  });
});

describe('bar and beer search', () => {
  it('finds bars by partial name and by city, case-insensitively', async () => {
    const byName = (await places.get('/api/bars/search?q=drankorg')).json() as Array<{ name: string }>;
    expect(byName.map((b) => b.name)).toContain('’t Drankorgel');
    const byCity = (await places.get('/api/bars/search?q=KRONACH&limit=50')).json() as Array<{ city: string }>;
    expect(byCity.length).toBeGreaterThan(0);
    expect(byCity.every((b) => b.city.toLowerCase().includes('kronach'))).toBe(true);
  });

  it('near a point (issue 40), answers the nearest matches of the whole catalogue first, each with its distance', async () => {
    type Found = { name: string; latitude: number | null; longitude: number | null; distance: number | null };
    const [lat, lng] = [39.7392, -104.9903];
    const near = (await places.get(`/api/bars/search?q=brew&lat=${lat}&lng=${lng}&limit=10`)).json() as Found[];
    expect(near).toHaveLength(10);
    const distances = near.map((b) => b.distance);
    expect(distances.every((d) => d !== null)).toBe(true);
    expect([...(distances as number[])].sort((a, b) => a - b)).toEqual(distances);
    // The reference: every match in the table, by haversine; the first ten by name were mostly elsewhere.
    const all = await places.prisma.bar.findMany({ where: { OR: [{ name: { contains: 'brew', mode: 'insensitive' } }, { city: { contains: 'brew', mode: 'insensitive' } }] } });
    const nearest = bruteForceNearby(all.filter((b): b is typeof b & { latitude: number; longitude: number } => b.latitude !== null && b.longitude !== null), lat, lng, 50_000_000);
    expect(distances).toEqual(nearest.slice(0, 10).map((b) => Math.round(b.miles * 10) / 10));
    expect(distances[0]).toBeLessThan(5);
    // Without a point: names that start with the text first, no distances.
    const anywhere = (await places.get('/api/bars/search?q=brew&limit=10')).json() as Found[];
    expect(anywhere.every((b) => b.distance === null)).toBe(true);
  });

  it('treats % and _ as themselves', async () => {
    expect((await places.get('/api/bars/search?q=%25%25%25')).json()).toEqual([]);
  });

  it('finds beers by style, and filters the list by style', async () => {
    const search = (await places.get('/api/beers/search?q=imperial%20stout&limit=50')).json() as Array<{ name: string; style: string; brewery: string }>;
    expect(search.length).toBeGreaterThan(0);
    expect(search.every((b) => /imperial stout/i.test(`${b.name} ${b.style} ${b.brewery}`))).toBe(true);
    expect(search.some((b) => b.style === 'Russian Imperial Stout')).toBe(true);
    const list = (await places.get('/api/beers?style=American%20IPA&limit=50')).json() as Array<{ style: string; abv: number | null }>;
    expect(list.length).toBe(50);
    expect(list.every((b) => b.style === 'American IPA')).toBe(true);
    const page2 = (await places.get('/api/beers?style=American%20IPA&limit=50&offset=50')).json() as Array<{ id: string }>;
    expect(page2.length).toBeGreaterThan(0);
  });

  it.each([
    ['/api/bars/search?q=', 'q'],
    [`/api/bars/search?q=${'x'.repeat(200)}`, 'q'],
    // A point needs both halves, each a coordinate.
    ['/api/bars/search?q=brew&lat=39.7', 'lng'],
    ['/api/bars/search?q=brew&lng=-104.9', 'lat'],
    ['/api/bars/search?q=brew&lat=abc&lng=0', 'lat'],
    ['/api/bars/search?q=brew&lat=0&lng=181', 'lng'],
    ['/api/beers/search', 'q'],
    [`/api/beers/search?q=${'y'.repeat(101)}`, 'q'],
    ['/api/bars?limit=51', 'limit'],
  ])('refuses %s with 400', async (url, field) => {
    const res = await places.get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });
});

describe('details', () => {
  it('shows a bar with the beers of its menu', async () => {
    const entry = await places.prisma.barBeer.findFirstOrThrow({ include: { bar: true, beer: true } });
    const res = await places.get(`/api/bars/${entry.barId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: entry.barId, name: entry.bar.name });
    expect(res.json().beers.map((b: { id: string }) => b.id)).toContain(entry.beerId);
  });

  it.each(['/api/bars/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', '/api/beers/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00'])('answers 404 for unknown %s', async (url) => {
    expect((await places.get(url)).statusCode).toBe(404);
  });

  it.each(['/api/bars/not-a-uuid', '/api/beers/42'])('answers 400 for the malformed id in %s', async (url) => {
    expect((await places.get(url)).statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await places.anonymous('/api/bars')).statusCode).toBe(401);
  });
});
