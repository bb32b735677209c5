import { namedPhotosAnswer, sessionsApi } from '@hoptrack/proto';

/** Asks the sessions service which stored session photos a session still names. */
export interface SessionPhotoNames {
  /** The keys among `keys` that a session names; throws when sessions cannot answer (the pass fails, nothing is deleted). */
  named(keys: readonly string[]): Promise<string[]>;
}

/**
 * Session photos (`uploads/<owner>/<id>.webp`) are named by the sessions
 * service's rows, which media cannot read: the sweep asks sessions, on the
 * internal network, a batch at a time (its contract: sessionsApi.namedPhotos).
 * Asked of the owner of the rows at the moment of judging, never of a read
 * model that could lag behind a session's commit by more than the grace.
 */
/** How long sessions may take to answer one batch: a pass that waits longer fails and the next one asks again. */
const ANSWER_TIMEOUT_MS = 10_000;

export function sessionPhotoNames(sessionsUrl: string, timeoutMs = ANSWER_TIMEOUT_MS): SessionPhotoNames {
  const url = new URL(sessionsApi.namedPhotos.path, sessionsUrl);
  return {
    async named(keys) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keys }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status !== 200) throw new Error(`sessions answered ${res.status} to ${sessionsApi.namedPhotos.path}`);
      return namedPhotosAnswer.parse(await res.json()).named;
    },
  };
}
