import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { FeedFilter, FeedSession, LikeResponse, MusicTrack, MyStats, ReactionSummary, SessionComment, SessionLike } from '@hoptrack/proto';
import { FEED_PAGE_DEFAULT, NEXT_CURSOR_HEADER } from '@hoptrack/proto/constants';
import { apiRequest, apiResponse } from './api';
import { cursorPage, listItems } from './cursorPages';
import type { PickedImage } from './photoPicker';
import { feedPageUrl } from './earlyRequests';
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
/** One session (GET /api/sessions/{id}, read by the default query fn); below SESSIONS_ROOT, so every session write refetches it. */
export const sessionKey = (sessionId: string) => [...SESSIONS_ROOT, sessionId] as const;
/** Below SESSIONS_ROOT, so every session write refetches the full lists too. */
export const sessionCommentsKey = (sessionId: string) => [...SESSIONS_ROOT, sessionId, 'comments'] as const;
export const sessionLikesKey = (sessionId: string) => [...SESSIONS_ROOT, sessionId, 'likes'] as const;

/**
 * What every session write refetches: the feed (every filter, every page) and the own list.
 * The own stats are not refetched but adjusted from the write (adjustMyStats): the social
 * graph learns of sessions by events, so a refetch right after the write can still answer
 * the old numbers and would put them back on screen until the next reload.
 */
export const SESSION_WRITES_AFFECT: readonly QueryKey[] = [SESSIONS_ROOT, MY_SESSIONS_KEY];

/** The part of a session the own stats count. */
export type CountedSession = Pick<FeedSession, 'beerCount' | 'duration' | 'createdAt'>;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Applies one own write to the cached stats: `before` is the session as it was (null for a
 * new one), `after` as it is now (null once deleted). Same rules as the server: hours to one
 * decimal, 'This Week' the beers of the last seven days. The next load reads the server's figures.
 */
export function adjustMyStats(queryClient: QueryClient, before: CountedSession | null, after: CountedSession | null): void {
  const thisWeek = (session: CountedSession | null) =>
    session && Date.now() - new Date(session.createdAt).getTime() < WEEK_MS ? session.beerCount : 0;
  const minutes = (session: CountedSession | null) => session?.duration ?? 0;
  queryClient.setQueryData<MyStats>(MY_STATS_KEY, (stats) =>
    stats
      ? {
          ...stats,
          totalSessions: stats.totalSessions + (after ? 1 : 0) - (before ? 1 : 0),
          totalHours: Math.max(0, Math.round((stats.totalHours + (minutes(after) - minutes(before)) / 60) * 10) / 10),
          weeklyTotal: Math.max(0, stats.weeklyTotal + thisWeek(after) - thisWeek(before)),
        }
      : stats,
  );
}

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

/**
 * What happens to the photos: a new list (replacing the stored one on an
 * edit), the stored ones dropped (edit), or nothing.
 */
export type PhotoChange = { kind: 'keep' } | { kind: 'replace'; images: readonly PickedImage[] } | { kind: 'remove' };

/**
 * The multipart body of POST /api/sessions and PUT /api/sessions/{id}: every
 * field as text, beerTypes and musicTrack as JSON text (an empty musicTrack is
 * none), each photo as a file part `sessionPhoto`, in the order picked.
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
  if (photo.kind === 'replace') for (const { file } of photo.images) form.append('sessionPhoto', file, file.name);
  else if (photo.kind === 'remove') form.append('removePhoto', 'true');
  return form;
}

const sessionUrl = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export const sessionsApi = {
  async feedPage(filter: FeedFilter, cursor: string | undefined, limit = FEED_PAGE_DEFAULT): Promise<FeedPage> {
    const res = await apiResponse('GET', feedPageUrl(filter, cursor, limit));
    const sessions = (await res.json()) as FeedSession[];
    return { sessions, nextCursor: res.headers.get(NEXT_CURSOR_HEADER) || null };
  },
  create: (draft: SessionDraft, photo: PhotoChange) => apiRequest<FeedSession>('POST', '/api/sessions', sessionFormData(draft, photo)),
  update: (id: string, draft: SessionDraft, photo: PhotoChange) =>
    apiRequest<FeedSession>('PUT', sessionUrl(id), sessionFormData(draft, photo)),
  remove: (id: string) => apiRequest<null>('DELETE', sessionUrl(id)),
  like: (id: string) => apiRequest<LikeResponse>('POST', `${sessionUrl(id)}/like`),
  unlike: (id: string) => apiRequest<LikeResponse>('DELETE', `${sessionUrl(id)}/like`),
  /** Every comment, oldest first (the card carries only the newest few). */
  comments: (id: string) => apiRequest<SessionComment[]>('GET', `${sessionUrl(id)}/comments`),
  /** A page of likers, newest first, at the server's default size. */
  likes: (id: string, cursor: string | undefined) => cursorPage<SessionLike>(`${sessionUrl(id)}/likes`, cursor),
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
 * The full lists behind a card (its comments, its likers) are read afresh each
 * time they are opened: other people's comments and likes arrive without a
 * write of the viewer's that would invalidate them.
 */
export const sessionCommentsQuery = (sessionId: string) =>
  queryOptions({
    queryKey: sessionCommentsKey(sessionId),
    queryFn: () => sessionsApi.comments(sessionId),
    staleTime: 0,
  });

export const sessionLikesQuery = (sessionId: string) =>
  infiniteQueryOptions({
    queryKey: sessionLikesKey(sessionId),
    queryFn: ({ pageParam }) => sessionsApi.likes(sessionId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
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
  return listItems(data && { ...data, pages: data.pages.map((page) => ({ items: page.sessions, nextCursor: page.nextCursor })) });
}
