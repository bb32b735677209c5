import { dateTime, relativeTime } from '../lib/format';
import { useNow } from '../lib/useNow';

/**
 * An instant as how long ago it was ('4 min ago'), moving as time passes
 * (useNow), with the exact date and time on hover.
 */
export function RelativeTime({ at, className }: { at: string; className?: string }) {
  const now = useNow();
  return (
    <time className={className} dateTime={at} title={dateTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}
