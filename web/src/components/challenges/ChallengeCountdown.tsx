import type { Challenge } from '@hoptrack/proto';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Its day is over where the viewer is (or it was withdrawn): the server refuses joins and invitations then. */
export function hasEnded(challenge: Pick<Challenge, 'isActive' | 'endsAt'>, now: number): boolean {
  return !challenge.isActive || Date.parse(challenge.endsAt) <= now;
}

/**
 * 'Ends in 5 h' (whole hours, down), under an hour 'Ends in 12 min' (at
 * least 1), 'Ended' once past: what a person glances at to know whether
 * there is still time tonight.
 */
export function endsInLabel(endsAt: string, now: number): string {
  const left = Date.parse(endsAt) - now;
  if (left <= 0) return 'Ended';
  if (left >= HOUR_MS) return `Ends in ${Math.floor(left / HOUR_MS)} h`;
  return `Ends in ${Math.max(1, Math.floor(left / MINUTE_MS))} min`;
}

/** The card's countdown to the end of the viewer's day (the card's endsAt), as a <time> with the moment itself. */
export function ChallengeCountdown({ challenge, now }: { challenge: Pick<Challenge, 'isActive' | 'endsAt'>; now: number }) {
  const ended = hasEnded(challenge, now);
  return (
    <time className={`challenge__ends${ended ? ' challenge__ends--over' : ''}`} dateTime={challenge.endsAt} title={new Date(challenge.endsAt).toLocaleString()}>
      {ended ? 'Ended' : endsInLabel(challenge.endsAt, now)}
    </time>
  );
}
