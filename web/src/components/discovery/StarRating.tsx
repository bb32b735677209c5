import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

const STARS = [1, 2, 3, 4, 5] as const;
const MAX_STARS = STARS.length;

/** '1 star', '4 stars'. */
export function starCountLabel(stars: number): string {
  return `${stars} ${stars === 1 ? 'star' : 'stars'}`;
}

/** A rating shown as five stars, the nearest whole number filled; read as '4 out of 5 stars' or '4.3 out of 5 stars'. */
export function StarRating({ value }: { value: number }) {
  const filled = Math.round(value);
  const spoken = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return (
    <span className="stars" role="img" aria-label={`${spoken} out of ${MAX_STARS} stars`}>
      {STARS.map((star) => (
        <span key={star} className={star <= filled ? 'stars__star stars__star--on' : 'stars__star'} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  );
}

interface StarPickerProps {
  /** The chosen number of stars; null before the first choice. */
  value: number | null;
  onChange: (stars: number) => void;
  /** The id of the visible label naming the group. */
  labelledBy: string;
  disabled?: boolean;
  /** Focus the group's Tab stop when it appears (a form opened on request). */
  autoFocus?: boolean;
}

/**
 * Choosing 1 to 5 stars: a radio group of star buttons ('1 star' ... '5 stars').
 * One Tab stop; the arrow keys, Home and End move the choice (ARIA radio group).
 */
export function StarPicker({ value, onChange, labelledBy, disabled, autoFocus }: StarPickerProps) {
  const [hovered, setHovered] = useState<number | null>(null);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const shown = hovered ?? value ?? 0;
  const tabStop = value ?? 1;

  useEffect(() => {
    if (autoFocus) buttons.current[0]?.focus();
  }, [autoFocus]);

  const choose = (stars: number) => {
    const next = Math.min(MAX_STARS, Math.max(1, stars));
    onChange(next);
    buttons.current[next - 1]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const current = value ?? 0;
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowUp: current + 1,
      ArrowLeft: current - 1,
      ArrowDown: current - 1,
      Home: 1,
      End: MAX_STARS,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    choose(target);
  };

  return (
    <div className="star-picker" role="radiogroup" aria-labelledby={labelledBy} aria-required="true" onMouseLeave={() => setHovered(null)}>
      {STARS.map((star) => (
        <button
          key={star}
          ref={(element) => {
            buttons.current[star - 1] = element;
          }}
          type="button"
          role="radio"
          aria-checked={value === star}
          aria-label={starCountLabel(star)}
          tabIndex={star === tabStop ? 0 : -1}
          className={star <= shown ? 'star-picker__star star-picker__star--on' : 'star-picker__star'}
          disabled={disabled}
          onClick={() => onChange(star)}
          onMouseEnter={() => setHovered(star)}
          onKeyDown={onKeyDown}
        >
          <span aria-hidden="true">★</span>
        </button>
      ))}
    </div>
  );
}
