/**
 * Calendar days in a person's time zone, with Intl alone: a challenge is for
 * a date, and "today" and the day's window depend on where the person is.
 */

/**
 * One formatter per zone, made once (a formatter costs ~40 µs). Keyed by the
 * canonical names the timeZone schema answers, so there are at most as many
 * as Intl has zones; the bound is there anyway, so that no caller passing
 * raw input can grow it (issue 39: 300 spellings of one zone kept 7–13 MB).
 */
const DATE_PARTS = new Map<string, Intl.DateTimeFormat>();
export const DATE_PARTS_MAX = 1000;

/** How many formatters are kept (the tests' view of the bound). */
export const formattersKept = (): number => DATE_PARTS.size;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = DATE_PARTS.get(timeZone);
  if (!formatter) {
    // Past the bound, the oldest goes (a Map iterates in insertion order).
    if (DATE_PARTS.size >= DATE_PARTS_MAX) DATE_PARTS.delete(DATE_PARTS.keys().next().value as string);
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    DATE_PARTS.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields at `at` in the zone. */
function wallClock(at: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The date (YYYY-MM-DD) it is at `at` in the zone. */
export function dateIn(at: Date, timeZone: string): string {
  const w = wallClock(at.getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The date `days` after (or before) a date. */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000;
}

/** The instant the date's midnight happens in the zone (twice corrected: the offset at midnight may differ from noon's across a DST change). */
function midnight(date: string, timeZone: string): Date {
  const local = Date.parse(`${date}T00:00:00Z`);
  let at = local - offsetAt(local, timeZone);
  at = local - offsetAt(at, timeZone);
  return new Date(at);
}

/** An interval of time, [start, end). */
export interface DayWindow {
  start: Date;
  end: Date;
}

/** The date's day in the zone, as [start, end): 23, 24 or 25 hours. */
export function dayWindow(date: string, timeZone: string): DayWindow {
  return { start: midnight(date, timeZone), end: midnight(addDays(date, 1), timeZone) };
}

/**
 * The window cut to lie between its neighbours: from no earlier than
 * `earlierEnd` to no later than `laterStart` (null: no neighbour that side).
 * It may come out empty (start >= end): the neighbours leave it no time.
 */
export function clipWindow(window: DayWindow, earlierEnd: Date | null, laterStart: Date | null): DayWindow {
  return {
    start: earlierEnd && earlierEnd > window.start ? earlierEnd : window.start,
    end: laterStart && laterStart < window.end ? laterStart : window.end,
  };
}
