import type { Bar } from '@hoptrack/proto';
import { barAddress } from '../../lib/catalogueApi';
import { milesLabel } from '../../lib/geolocation';

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

/** Bars as cards; each one opens its detail. */
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
              <span className="bar-card__tags">
                {bar.rating !== null && <span className="bar-card__rating">★ {bar.rating.toFixed(1)}</span>}
                {bar.isOpen !== null && <span className="badge">{bar.isOpen ? 'Open' : 'Closed'}</span>}
                {bar.types.slice(0, 3).map((type) => (
                  <span key={type} className="badge">
                    {type.replaceAll('_', ' ')}
                  </span>
                ))}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
