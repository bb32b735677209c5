/** Display formats of the social screens (spec section 9), fixed to English like the rest of the texts. */
const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Joined March 2025'; empty when the date is unreadable. */
export function joinedLabel(isoDate: string): string {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '' : `Joined ${MONTH_YEAR.format(date)}`;
}

/** 'Mar 4, 2025'; empty when the date is unreadable. */
export function shortDate(isoDate: string): string {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '' : DAY.format(date);
}

const CALENDAR_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * A calendar date ('2025-03-04', a challenge's day) as 'Mar 4, 2025'. Read
 * and shown in UTC: it names a day, not an instant, so no zone may move it
 * to the day before. Empty when unreadable.
 */
export function calendarDate(isoDay: string): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? '' : CALENDAR_DAY.format(date);
}

/** A file's size: 2048 → '2 KB', 3_500_000 → '3.3 MB'. */
export function fileSizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const DAY_AND_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** 'Mar 4, 2025, 2:05 PM' (an instant in the viewer's zone, to the minute); empty when unreadable. */
export function dateTime(isoDate: string): string {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '' : DAY_AND_TIME.format(date);
}

const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

/**
 * A server's message with its instants in the viewer's words: sign-in's
 * "This account is suspended until 2026-12-08T10:00:00.000Z." (issue 42)
 * reads "…until Dec 8, 2026, 11:00 AM.".
 */
export function readableTimes(message: string): string {
  return message.replace(ISO_INSTANT, (iso) => dateTime(iso) || iso);
}

/** Hours with one decimal: 2 → '2.0'. */
export function hoursLabel(hours: number): string {
  return hours.toFixed(1);
}

/** Hours with at most one decimal, none when whole: 0 → '0', 1.25 → '1.3'. */
export function compactHours(hours: number): string {
  return String(Math.round(hours * 10) / 10);
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Milliseconds since `isoDate`, or null when the date is unreadable. */
function elapsedSince(isoDate: string, now: number): number | null {
  const time = new Date(isoDate).getTime();
  return Number.isNaN(time) ? null : now - time;
}

/**
 * How long ago, the one wording of every relative time in the app (issue 40,
 * item 12; docs/decisions.md): under a minute 'Just now', under an hour
 * 'N min ago', under a day 'Nh ago' (the spec's), then 'Yesterday', 'Nd ago'
 * (the spec's) up to a week, and the date ('Mar 4, 2025') after. A time in
 * the future (clocks apart) is 'Just now'; an unreadable date is empty. On
 * screen it is `<RelativeTime>`, which moves with the clock.
 */
export function relativeTime(isoDate: string, now: number = Date.now()): string {
  const elapsed = elapsedSince(isoDate, now);
  if (elapsed === null) return '';
  if (elapsed < MINUTE_MS) return 'Just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} min ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  if (elapsed < 2 * DAY_MS) return 'Yesterday';
  if (elapsed < 7 * DAY_MS) return `${Math.floor(elapsed / DAY_MS)}d ago`;
  return shortDate(isoDate);
}

/**
 * A session's length, the one way every screen says it (issue 40: the feed
 * said '1.6h' where the profile said '95 minutes'): 45 → '45 min', 120 →
 * '2 h', 95 → '1 h 35 min'. Exact, unlike the spec's hours with one decimal,
 * which turned 95 minutes into 1.6 hours (docs/decisions.md).
 */
export function durationLabel(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** '1 beer', '3 beers' (and the like for any noun with a plain -s plural). */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** An ABV kept as text ('5.2'), shown as '5.2% ABV'. */
export function abvText(avgAbv: string): string {
  return `${avgAbv}% ABV`;
}

const CLOCK = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/**
 * A conversation's or a message's time (spec section 9): the time of day
 * ('2:05 PM') when under 24 hours ago, else the date ('Mar 4, 2025'). An
 * unreadable date is empty.
 */
export function conversationTime(isoDate: string, now: number = Date.now()): string {
  const date = new Date(isoDate);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  return now - time < DAY_MS ? CLOCK.format(date) : DAY.format(date);
}

/** Shown as is up to this count on a badge (nav links, the bell); above it, '99+'. */
export const BADGE_MAX = 99;
export function badgeText(count: number): string {
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}
