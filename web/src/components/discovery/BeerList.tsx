import type { Beer } from '@hoptrack/proto';
import { abvLabel } from '../../lib/catalogueApi';

interface BeerListProps {
  label: string;
  beers: readonly Beer[];
  /** Leave the brewery out (a bar's own list). */
  showBrewery?: boolean;
  stale?: boolean;
}

/** Beers with name, brewery, style, ABV (as %) and IBU, whichever are known. */
export function BeerList({ label, beers, showBrewery = true, stale }: BeerListProps) {
  return (
    <ul className="beer-list" aria-busy={stale || undefined} aria-label={label}>
      {beers.map((beer) => (
        <li key={beer.id} className="beer-card">
          <span className="beer-card__name">{beer.name}</span>
          {showBrewery && <span className="beer-card__brewery">{beer.brewery}</span>}
          <span className="beer-card__facts">
            {beer.style && <span className="badge beer-card__style">{beer.style}</span>}
            {beer.abv !== null && <span className="beer-card__fact">ABV {abvLabel(beer.abv)}</span>}
            {beer.ibu !== null && <span className="beer-card__fact">IBU {beer.ibu}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
