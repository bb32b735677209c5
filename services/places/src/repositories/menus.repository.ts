import { executeSql, sql } from '@hoptrack/runtime';
import type { Db, Prisma } from '../db';

/** What bars pour (bar_beers) and serve (bar_food, with the dishes of food_items). */
export const menusRepository = {
  /** Adds the dishes, leaving those already there (by id) as they are. */
  async addDishes(db: Db, dishes: Prisma.FoodItemCreateManyInput[]): Promise<void> {
    await db.foodItem.createMany({ data: dishes, skipDuplicates: true });
  },

  /** Puts dishes on bars' menus, leaving those already on them as they are; how many were added. */
  async serve(db: Db, entries: Prisma.BarFoodCreateManyInput[]): Promise<number> {
    const { count } = await db.barFood.createMany({ data: entries, skipDuplicates: true });
    return count;
  },

  /**
   * Puts beers on bars' menus, both named by their ids in the source: the
   * n-th bar pours the n-th beer. Pairs already there, or naming a bar or a
   * beer not loaded, are left out.
   */
  async pourBySource(db: Db, barSourceIds: string[], beerSourceIds: string[]): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO bar_beers (bar_id, beer_id)
       SELECT b.id, be.id FROM unnest(${barSourceIds}::text[], ${beerSourceIds}::text[]) AS m(bar_source, beer_source)
       JOIN bars b ON b.source_id = m.bar_source JOIN beers be ON be.source_id = m.beer_source
       ON CONFLICT DO NOTHING`,
    );
  },
};
