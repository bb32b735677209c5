import { useEffect, useSyncExternalStore } from 'react';
import { currentPosition, GEOLOCATION_OPTIONS, type Coordinates } from './geolocation';

/**
 * Where the browser is, as far as this tab knows: the last position any
 * screen got ('Use my location' on Discovery, in the session form, in Find
 * Venues). A screen that wants it (bars near you, venue search by distance)
 * asks the browser itself only when the person already allowed it: a
 * permission prompt comes only from a button they pressed (issue 40). A
 * position older than the spec's 5 minutes is asked for again that way.
 */
export interface KnownPosition {
  at: Coordinates | null;
  /** Asking the browser, unprompted, right now. */
  locating: boolean;
}

// Until the first look at the permission, a screen shows that it is looking rather than "we don't know".
let state: KnownPosition = { at: null, locating: true };
let gotAt = 0;
let inFlight = false;
const listeners = new Set<() => void>();
const MAX_AGE_MS = GEOLOCATION_OPTIONS.maximumAge ?? 0;

function set(next: Partial<KnownPosition>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** The browser's position (a prompt if need be), remembered for the other screens. */
export async function locate(): Promise<Coordinates> {
  const at = await currentPosition();
  gotAt = Date.now();
  set({ at });
  return at;
}

/** Whether the person has already allowed this site their position (no prompt would show). */
async function allowed(): Promise<boolean> {
  try {
    return (await navigator.permissions.query({ name: 'geolocation' })).state === 'granted';
  } catch {
    return false;
  }
}

/** Asks the browser for the position if it was allowed already and none is fresh; once at a time for the tab. */
function refreshIfAllowed(): void {
  if (inFlight || (state.at && Date.now() - gotAt <= MAX_AGE_MS)) return;
  inFlight = true;
  if (!state.locating) set({ locating: true });
  void allowed()
    .then((yes) => (yes ? locate() : null))
    .catch(() => null)
    .finally(() => {
      inFlight = false;
      set({ locating: false });
    });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The position when it is known or may be had without asking (null otherwise: the screen says so). */
export function useKnownPosition(): KnownPosition {
  const known = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    refreshIfAllowed();
  }, []);
  return known;
}
