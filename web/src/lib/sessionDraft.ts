import type { FeedSession } from '@hoptrack/proto';
import { SESSION_BEER_COUNT_MAX, SESSION_DEFAULTS, SESSION_DURATION_MAX, SESSION_TITLE_MAX, normaliseBeerTypes } from '@hoptrack/proto/constants';
import type { SessionDraft } from './sessionsApi';

/** The Log dialog's starting point: beerCount 1, duration 60 (spec section 9), everything else empty. */
export function emptyDraft(): SessionDraft {
  return {
    title: '',
    description: '',
    location: '',
    beerCount: String(SESSION_DEFAULTS.beerCount),
    duration: String(SESSION_DEFAULTS.duration),
    avgAbv: '',
    latitude: '',
    longitude: '',
    beerTypes: [],
    musicTrack: null,
  };
}

/** The Edit dialog's starting point: the session as it is. */
export function draftOf(session: FeedSession): SessionDraft {
  return {
    title: session.title,
    description: session.description ?? '',
    location: session.location ?? '',
    beerCount: String(session.beerCount),
    duration: String(session.duration),
    avgAbv: session.avgAbv ?? '',
    latitude: session.latitude ?? '',
    longitude: session.longitude ?? '',
    beerTypes: [...session.beerTypes],
    musicTrack: session.musicTrack,
  };
}

export type DraftErrors = Partial<Record<'title' | 'beerCount' | 'duration' | 'avgAbv', string>>;

function wholeNumberError(text: string, label: string, max: number): string | undefined {
  const value = text.trim();
  if (!/^\d+$/.test(value) || Number(value) < 1) return `${label} must be a whole number, at least 1`;
  if (Number(value) > max) return `${label} must be at most ${max}`;
  return undefined;
}

/**
 * The checks of spec section 5 before any call: a title, beers and minutes
 * whole numbers of at least 1, an ABV (optional) from 0 to 100. The server
 * checks the rest and its message is shown.
 */
export function draftErrors(draft: SessionDraft): DraftErrors {
  const errors: DraftErrors = {};
  const title = draft.title.trim();
  if (!title) errors.title = 'Title is required';
  else if (title.length > SESSION_TITLE_MAX) errors.title = `Title must be at most ${SESSION_TITLE_MAX} characters`;
  const beers = wholeNumberError(draft.beerCount, 'Beers', SESSION_BEER_COUNT_MAX);
  if (beers) errors.beerCount = beers;
  const minutes = wholeNumberError(draft.duration, 'Duration', SESSION_DURATION_MAX);
  if (minutes) errors.duration = minutes;
  const abv = draft.avgAbv.trim();
  if (abv && !(/^\d+(\.\d+)?$/.test(abv) && Number(abv) <= 100)) errors.avgAbv = 'ABV must be a number from 0 to 100';
  return errors;
}

/**
 * Adds a custom beer type (spec section 5: trimmed, non-empty, no
 * duplicates). A type matching a preset in another case takes the preset's
 * spelling. Null when there is nothing new to add.
 */
export function addBeerType(types: readonly string[], typed: string, presets: readonly string[]): string[] | null {
  const text = typed.trim();
  if (!text) return null;
  const preset = presets.find((candidate) => candidate.toLowerCase() === text.toLowerCase());
  const next = normaliseBeerTypes([...types, preset ?? text]);
  return next.length > types.length ? next : null;
}

/** Selects a type that is not chosen, drops one that is. */
export function toggleBeerType(types: readonly string[], type: string): string[] {
  return types.includes(type) ? types.filter((candidate) => candidate !== type) : [...types, type];
}
