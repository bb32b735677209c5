import { infiniteQueryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import {
  FEED_PAGE_DEFAULT,
  NEXT_CURSOR_HEADER,
  type FeedFilter,
  type FeedSession,
  type LikeResponse,
  type MusicTrack,
  type ReactionSummary,
  type SessionComment,
} from '@hoptrack/proto';
import { apiRequest, apiResponse } from './api';
import { MY_STATS_KEY, userKey } from './socialApi';

/**
 * Beer sessions (spec section 7, 'Sessions'). Keys are URL parts: the feed
 * hangs below `['/api/sessions']` with the filter as its last part and its own
 * query fn (the cursor of the next page travels in the `x-next-cursor`
 * header, so it cannot be the default fn); the own list and a user's list are
 * plain URL keys read by the default query fn.
 */
export const SESSIONS_ROOT = ['/api/sessions'] as const;
export const FEED_ROOT = [...SESSIONS_ROOT, 'feed'] as const;
export const feedKey = (filter: FeedFilter) => [...FEED_ROOT, filter] as const;
export const MY_SESSIONS_KEY = ['/api/me/sessions'] as const;
export const userSessionsKey = (userId: string) => [...userKey(userId), 'sessions'] as const;

/** What every session write changes: the feed (every filter, every page), the own list and the own stats. */
export const SESSION_WRITES_AFFECT: readonly QueryKey[] = [SESSIONS_ROOT, MY_SESSIONS_KEY, MY_STATS_KEY];

/** One page of the feed and the cursor of the next one (null on the last page). */
export interface FeedPage {
  sessions: FeedSession[];
  nextCursor: string | null;
}

export type FeedData = InfiniteData<FeedPage>;

/** The fields of the Log and Edit dialogs, as typed (numbers are still text). */
export interface SessionDraft {
  title: string;
  description: string;
  location: string;
  beerCount: string;
  duration: string;
  avgAbv: string;
  latitude: string;
  longitude: string;
  beerTypes: string[];
  musicTrack: MusicTrack | null;
}

/** What happens to the photo: a new file, the old one dropped (edit), or nothing. */
export type PhotoChange = { kind: 'keep' } | { kind: 'replace'; file: File } | { kind: 'remove' };

/**
 * The multipart body of POST /api/sessions and PUT /api/sessions/{id}: every
 * field as text, beerTypes and musicTrack as JSON text (an empty musicTrack is
 * none), the photo as the file part `sessionPhoto`.
 */
export function sessionFormData(draft: SessionDraft, photo: PhotoChange): FormData {
  const form = new FormData();
  form.append('title', draft.title.trim());
  form.append('description', draft.description.trim());
  form.append('location', draft.location.trim());
  form.append('beerCount', draft.beerCount.trim());
  form.append('duration', draft.duration.trim());
  form.append('avgAbv', draft.avgAbv.trim());
  form.append('latitude', draft.latitude.trim());
  form.append('longitude', draft.longitude.trim());
  form.append('beerTypes', JSON.stringify(draft.beerTypes));
  form.append('musicTrack', draft.musicTrack ? JSON.stringify(draft.musicTrack) : '');
  if (photo.kind === 'replace') form.append('sessionPhoto', photo.file, photo.file.name);
  else if (photo.kind === 'remove') form.append('removePhoto', 'true');
  return form;
}

const sessionUrl = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export const sessionsApi = {
  async feedPage(filter: FeedFilter, cursor: string | undefined, limit = FEED_PAGE_DEFAULT): Promise<FeedPage> {
    const params = new URLSearchParams({ filter, limit: String(limit) });
    if (cursor) params.set('cursor', cursor);
    const res = await apiResponse('GET', `/api/sessions?${params.toString()}`);
    const sessions = (await res.json()) as FeedSession[];
    return { sessions, nextCursor: res.headers.get(NEXT_CURSOR_HEADER) || null };
  },
  create: (draft: SessionDraft, photo: PhotoChange) => apiRequest<FeedSession>('POST', '/api/sessions', sessionFormData(draft, photo)),
  update: (id: string, draft: SessionDraft, photo: PhotoChange) =>
    apiRequest<FeedSession>('PUT', sessionUrl(id), sessionFormData(draft, photo)),
  remove: (id: string) => apiRequest<null>('DELETE', sessionUrl(id)),
  like: (id: string) => apiRequest<LikeResponse>('POST', `${sessionUrl(id)}/like`),
  unlike: (id: string) => apiRequest<LikeResponse>('DELETE', `${sessionUrl(id)}/like`),
  comment: (id: string, content: string) => apiRequest<SessionComment>('POST', `${sessionUrl(id)}/comments`, { content }),
  deleteComment: (id: string, commentId: string) =>
    apiRequest<null>('DELETE', `${sessionUrl(id)}/comments/${encodeURIComponent(commentId)}`),
  react: (id: string, emoji: string) => apiRequest<ReactionSummary[]>('POST', `${sessionUrl(id)}/react`, { emoji }),
  unreact: (id: string, emoji: string) => apiRequest<ReactionSummary[]>('DELETE', `${sessionUrl(id)}/react`, { emoji }),
};

/**
 * The feed query of one filter: FeedList reads it, and the home page starts
 * it while /api/me is still on its way, so the two calls run side by side
 * instead of one after the other (the bench's first-render figure).
 */
export const feedQuery = (filter: FeedFilter) =>
  infiniteQueryOptions({
    queryKey: feedKey(filter),
    queryFn: ({ pageParam }) => sessionsApi.feedPage(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/**
 * Writes a change of one session into every cached feed page that holds it,
 * so a like or a reaction shows at once; the invalidation that follows brings
 * the server's whole word (avatars of likers, other people's reactions).
 */
export function patchCachedSession(
  queryClient: QueryClient,
  sessionId: string,
  patch: (session: FeedSession) => FeedSession,
): void {
  queryClient.setQueriesData<FeedData>({ queryKey: FEED_ROOT }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            sessions: page.sessions.map((session) => (session.id === sessionId ? patch(session) : session)),
          })),
        }
      : data,
  );
}

/** The sessions of every loaded page, each once (a session logged meanwhile can shift a later page). */
export function feedSessions(data: FeedData | undefined): FeedSession[] {
  const seen = new Set<string>();
  const out: FeedSession[] = [];
  for (const page of data?.pages ?? []) {
    for (const session of page.sessions) {
      if (seen.has(session.id)) continue;
      seen.add(session.id);
      out.push(session);
    }
  }
  return out;
}
