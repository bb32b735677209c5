import type { Bar } from '@hoptrack/proto';
import { Link } from 'react-router';
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
  stale?: boolean;
}

/** The history state of a bar opened from a list: closing it goes back there. */
export const FROM_LIST = { fromList: true } as const;

/**
 * Bars as cards; each one links to its bar (/bars/{id}, its detail over the
 * list). Open/Closed only where the bar's hours are known (the data sets have none).
 */
export function BarList({ label, bars, stale }: BarListProps) {
  return (
    <ul className="bar-list" aria-busy={stale || undefined} aria-label={label}>
      {bars.map((bar) => {
        const address = barAddress(bar);
        return (
          <li key={bar.id} className="bar-card">
            <Link to={`/bars/${encodeURIComponent(bar.id)}`} state={FROM_LIST} className="bar-card__open" aria-haspopup="dialog">
              <span className="bar-card__head">
                <span className="bar-card__name">{bar.name}</span>
                {bar.distance !== null && <span className="bar-card__distance">{milesLabel(bar.distance)}</span>}
              </span>
              {address && <span className="bar-card__meta">{address}</span>}
              <PlaceTags rating={bar.rating} priceLevel={bar.priceRange} openNow={bar.isOpen} types={bar.types} />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
