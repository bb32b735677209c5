import type { Bar } from '@hoptrack/proto';
import { barAddress } from '../../lib/catalogueApi';
import { milesLabel } from '../../lib/geolocation';
import { PlaceTags } from './PlaceTags';

/** Bars shown while a list loads (spec section 2: 6 bars). */
export const BAR_SKELETON_COUNT = 6;

export function BarListSkeleton() {
  return (
    <div className="bar-list" role="status" aria-label="Loading bars">
      {Array.from({ length: BAR_SKELETON_COUNT }, (_, index) => (
        <div key={index} className="bar-card bar-card--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--line" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}

interface BarListProps {
  label: string;
  bars: readonly Bar[];
  onOpen: (bar: Bar) => void;
  stale?: boolean;
}

/** Bars as cards; each one opens its detail. Open/Closed only where the bar's hours are known (the data sets have none). */
export function BarList({ label, bars, onOpen, stale }: BarListProps) {
  return (
    <ul className="bar-list" aria-busy={stale || undefined} aria-label={label}>
      {bars.map((bar) => {
        const address = barAddress(bar);
        return (
          <li key={bar.id} className="bar-card">
            <button type="button" className="bar-card__open" aria-haspopup="dialog" onClick={() => onOpen(bar)}>
              <span className="bar-card__head">
                <span className="bar-card__name">{bar.name}</span>
                {bar.distance !== null && <span className="bar-card__distance">{milesLabel(bar.distance)}</span>}
              </span>
              {address && <span className="bar-card__meta">{address}</span>}
              <PlaceTags rating={bar.rating} priceLevel={bar.priceRange} openNow={bar.isOpen} types={bar.types} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
