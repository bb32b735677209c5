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

/** Hours with one decimal: 2 → '2.0'. */
export function hoursLabel(hours: number): string {
  return hours.toFixed(1);
}

/** Hours with at most one decimal, none when whole: 0 → '0', 1.25 → '1.3'. */
export function compactHours(hours: number): string {
  return String(Math.round(hours * 10) / 10);
}
