import type { Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { barsRepository } from '../repositories/bars.repository';
import { menusRepository } from '../repositories/menus.repository';

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
  await menusRepository.addDishes(
    prisma,
    DISHES.map(({ price: _price, ...dish }) => ({ ...dish, allergens: [...dish.allergens] })),
  );
  const bars = await barsRepository.idsOfBarsWithBeers(prisma, DEMO_BARS);
  const count = await menusRepository.serve(
    prisma,
    bars.flatMap((barId) => DISHES.map((dish) => ({ barId, foodItemId: dish.id, price: dish.price }))),
  );
  if (count > 0) logger.info({ bars: bars.length, dishes: DISHES.length }, 'demo menus loaded');
}
