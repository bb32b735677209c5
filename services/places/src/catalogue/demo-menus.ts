import type { Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';

/**
 * A short pub menu for demos. No open data set has bar menus, so this is
 * made-up data, loaded only where DEMO_MENUS=on (make dev and the browser
 * tests), never in production. Fixed ids keep it idempotent.
 */
const DISHES = [
  { id: '5f3c1a00-0000-4000-8000-000000000001', name: 'Soft pretzel with beer cheese', category: 'Snacks', allergens: ['gluten', 'milk'], price: 7 },
  { id: '5f3c1a00-0000-4000-8000-000000000002', name: 'Fish and chips', category: 'Mains', allergens: ['fish', 'gluten'], price: 15 },
  { id: '5f3c1a00-0000-4000-8000-000000000003', name: 'Stout-braised beef pie', category: 'Mains', allergens: ['gluten', 'celery'], price: 16 },
  { id: '5f3c1a00-0000-4000-8000-000000000004', name: 'Loaded fries', category: 'Snacks', allergens: ['milk'], price: 8 },
  { id: '5f3c1a00-0000-4000-8000-000000000005', name: 'Garden salad', category: 'Mains', allergens: [], price: 11 },
] as const;

/** Brewpubs that pour their own beers (a menu from the data sets) get the demo dishes. */
const DEMO_BARS = 200;

export async function seedDemoMenus(prisma: PrismaClient, logger: Logger): Promise<void> {
  await prisma.foodItem.createMany({
    data: DISHES.map(({ price: _price, ...dish }) => ({ ...dish, allergens: [...dish.allergens] })),
    skipDuplicates: true,
  });
  const bars = await prisma.bar.findMany({ where: { beers: { some: {} } }, orderBy: { sourceId: 'asc' }, take: DEMO_BARS, select: { id: true } });
  const { count } = await prisma.barFood.createMany({
    data: bars.flatMap((bar) => DISHES.map((dish) => ({ barId: bar.id, foodItemId: dish.id, price: dish.price }))),
    skipDuplicates: true,
  });
  if (count > 0) logger.info({ bars: bars.length, dishes: DISHES.length }, 'demo menus loaded');
}
