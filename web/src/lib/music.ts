import type { MusicTrack } from '@hoptrack/proto';
import { MUSIC_TEXT_MAX } from '@hoptrack/proto/constants';

/**
 * Music search is a local mock (spec section 7): 5 built-in tracks, answered
 * after 500 ms, no server call. A track chosen here is stored with the
 * session as it is.
 */
export const MUSIC_SEARCH_DELAY_MS = 500;

export const BUILT_IN_TRACKS: readonly MusicTrack[] = [
  track('local-1', 'Beer Never Broke My Heart', 'Luke Combs', 'What You See Is What You Get', 186),
  track('local-2', 'Tubthumping', 'Chumbawamba', 'Tubthumper', 278),
  track('local-3', 'Friends in Low Places', 'Garth Brooks', 'No Fences', 258),
  track('local-4', 'Cheers (Drink to That)', 'Rihanna', 'Loud', 261),
  track('local-5', 'Beer for My Horses', 'Toby Keith', 'Unleashed', 340),
];

function track(id: string, name: string, artist: string, album: string, duration: number): MusicTrack {
  return { id, name, artist, album, duration, imageUrl: null, service: 'manual', externalUrl: null };
}

/** The built-in tracks whose name, artist or album contains the text (any case); none for blank text. */
export function matchTracks(query: string): MusicTrack[] {
  const text = query.trim().toLowerCase();
  if (!text) return [];
  return BUILT_IN_TRACKS.filter((candidate) =>
    [candidate.name, candidate.artist, candidate.album ?? ''].some((part) => part.toLowerCase().includes(text)),
  );
}

/** `matchTracks`, answered after the mock's delay; an aborted search never answers. */
export function searchTracks(query: string, signal?: AbortSignal): Promise<MusicTrack[]> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => resolve(matchTracks(query)), MUSIC_SEARCH_DELAY_MS);
    signal?.addEventListener('abort', () => {
      window.clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Why typed text is not a song yet: the field at fault and the words it shows. */
export interface ManualTrackProblem {
  field: 'name' | 'artist';
  message: string;
}

/**
 * A song typed by hand (the spec's `service: 'manual'`): title and artist
 * trimmed, both required, each at most MUSIC_TEXT_MAX characters, as the
 * server's musicTrack schema has them; its length is unknown (0, shown as
 * none). The problem instead when it is not a song.
 */
export function manualTrack(name: string, artist: string): MusicTrack | { problem: ManualTrackProblem } {
  const [title, by] = [name.trim(), artist.trim()];
  const refuse = (field: ManualTrackProblem['field'], message: string) => ({ problem: { field, message } });
  if (!title) return refuse('name', 'Song title is required');
  if (title.length > MUSIC_TEXT_MAX) return refuse('name', `Song title must be at most ${MUSIC_TEXT_MAX} characters`);
  if (!by) return refuse('artist', 'Artist is required');
  if (by.length > MUSIC_TEXT_MAX) return refuse('artist', `Artist must be at most ${MUSIC_TEXT_MAX} characters`);
  const id = `typed-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return { id, name: title, artist: by, album: null, duration: 0, imageUrl: null, service: 'manual', externalUrl: null };
}

/** 3:05 from 185 seconds. */
export function trackLength(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}
