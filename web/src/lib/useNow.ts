import { useEffect, useState } from 'react';

/** How often a clock on screen moves: a minute's countdown is never more than this late. */
export const NOW_TICK_MS = 15_000;

/**
 * The current time (ms), read again every `everyMs`: what a countdown or an
 * expiry on an open screen is computed from, so it moves without a reload.
 */
export function useNow(everyMs = NOW_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
