import type { FoodItem } from '@hoptrack/proto';
import { priceLabel } from '../../lib/catalogueApi';

/**
 * A bar's menu: name, category, price, description and allergens of each
 * dish; one the bar does not serve right now is marked 'Unavailable'.
 * The caller leaves the section out when the menu is empty.
 */
export function BarFood({ barName, food }: { barName: string; food: readonly FoodItem[] }) {
  return (
    <ul className="food-list" aria-label={`Food at ${barName}`}>
      {food.map((item) => (
        <li key={item.id} className={item.isAvailable ? 'food-card' : 'food-card food-card--unavailable'}>
          <span className="food-card__head">
            <span className="food-card__name">{item.name}</span>
            {item.price !== null && <span className="food-card__price">{priceLabel(item.price)}</span>}
          </span>
          {item.description && <span className="food-card__description">{item.description}</span>}
          {(item.category || !item.isAvailable || item.allergens.length > 0) && (
            <span className="food-card__facts">
              {item.category && <span className="badge food-card__category">{item.category}</span>}
              {!item.isAvailable && <span className="badge badge--muted">Unavailable</span>}
              {item.allergens.length > 0 && <span className="food-card__allergens">Contains: {item.allergens.join(', ')}</span>}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
