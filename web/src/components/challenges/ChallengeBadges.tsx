import type { CompletedChallenge } from '@hoptrack/proto';
import { calendarDate } from '../../lib/format';
import { TrophyIcon } from '../icons';

type Badge = Pick<CompletedChallenge, 'id' | 'title' | 'date'>;

/** Completed challenges as small badges: a trophy, the title and the day it was for. */
export function ChallengeBadges({ items, label }: { items: readonly Badge[]; label: string }) {
  return (
    <ul className="challenge-badges" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="challenge-badge">
          <TrophyIcon className="challenge-badge__icon" width={16} height={16} />
          <span className="challenge-badge__title">{item.title}</span>
          <time className="challenge-badge__date" dateTime={item.date}>
            {calendarDate(item.date)}
          </time>
        </li>
      ))}
    </ul>
  );
}
