import { placeTypeLabels, priceLevelLabel } from '../../lib/catalogueApi';

interface PlaceTagsProps {
  /** Each null when the source does not know it: then nothing is shown for it. */
  rating: number | null;
  priceLevel: number | null;
  openNow: boolean | null;
  types: readonly string[];
}

/** The short facts of a bar or venue card: rating, price level, open or closed, and a few types, each only when known. */
export function PlaceTags({ rating, priceLevel, openNow, types }: PlaceTagsProps) {
  const labels = placeTypeLabels(types);
  if (rating === null && priceLevel === null && openNow === null && labels.length === 0) return null;
  return (
    <span className="bar-card__tags">
      {rating !== null && <span className="bar-card__rating">★ {rating.toFixed(1)}</span>}
      {priceLevel !== null && (
        <span className="bar-card__price">
          <span className="visually-hidden">Price </span>
          {priceLevelLabel(priceLevel)}
        </span>
      )}
      {openNow !== null && <span className="badge">{openNow ? 'Open' : 'Closed'}</span>}
      {labels.map((label) => (
        <span key={label} className="badge">
          {label}
        </span>
      ))}
    </span>
  );
}
