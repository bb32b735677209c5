import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { FeedFilter, FeedSession, MusicTrack, MyStats } from '@hoptrack/proto';
import { FEED_PAGE_DEFAULT, NEXT_CURSOR_HEADER } from '@hoptrack/proto/constants';
import { api } from '../api';
import { cursorPage, listItems } from './cursorPages';
import type { PickedImage } from './photoPicker';
import { feedPageQuery } from './earlyRequests';
import { MY_STATS_KEY } from './socialApi';

/**
 * Beer sessions (spec section 7, 'Sessions'). Keys are the contracts' own
 * (`api.sessions.<name>.key(...)`): the feed's carries the filter and has its
 * own query fn (the cursor of the next page travels in the `x-next-cursor`
 * header); a session, its comments and its likers carry the session's id.
 */
export const FEED_ROOT = api.sessions.feed.key();
export const feedKey = (filter: FeedFilter) => api.sessions.feed.key({ query: { filter } });
export const MY_SESSIONS_KEY = api.sessions.mine.key();
export const userSessionsKey = (userId: string) => api.sessions.ofUser.key({ params: { id: userId } });
/** One session (GET /api/sessions/{id}); among SESSION_WRITES_AFFECT, so every session write refetches it. */
export const sessionKey = (sessionId: string) => api.sessions.get.key({ params: { id: sessionId } });
/** Among SESSION_WRITES_AFFECT, so every session write refetches the full lists too. */
export const sessionCommentsKey = (sessionId: string) => api.sessions.comments.key({ params: { id: sessionId } });
export const sessionLikesKey = (sessionId: string) => api.sessions.likes.key({ params: { id: sessionId } });

/**
 * What every session write refetches: the feed (every filter, every page), every
 * session read by itself with its comments and likers, and the own list. A person's
 * list (userSessionsKey) is not among them: relationship changes refetch it
 * (RELATIONSHIP_KEYS). The own stats are not refetched but adjusted from the write
 * (adjustMyStats): the social graph learns of sessions by events, so a refetch right
 * after the write can still answer the old numbers and would put them back on screen
 * until the next reload.
 */
export const SESSION_WRITES_AFFECT: readonly QueryKey[] = [
  FEED_ROOT,
  api.sessions.get.key(),
  api.sessions.comments.key(),
  api.sessions.likes.key(),
  MY_SESSIONS_KEY,
];

/**
 * The live `feed` push: the fan-out copied someone's earlier sessions onto the
 * viewer's timeline (a new friendship, a request, an unmute), so the feed
 * (every filter) refetches. Said by sessions once the copy is written, not
 * guessed from the friendship's own push, which comes before it (issue 40, item 8).
 */
export function refreshFeed(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: FEED_ROOT });
}

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

export const sessionsApi = {
  async feedPage(filter: FeedFilter, cursor: string | undefined, limit = FEED_PAGE_DEFAULT): Promise<FeedPage> {
    const { data: sessions, response } = await api.sessions.feed.withResponse({ query: feedPageQuery(filter, cursor, limit) });
    return { sessions, nextCursor: response.headers.get(NEXT_CURSOR_HEADER) || null };
  },
  create: (draft: SessionDraft, photo: PhotoChange) => api.sessions.create({ form: sessionFormData(draft, photo) }),
  update: (id: string, draft: SessionDraft, photo: PhotoChange) => api.sessions.update({ params: { id }, form: sessionFormData(draft, photo) }),
  remove: (id: string) => api.sessions.delete({ params: { id } }),
  like: (id: string) => api.sessions.like({ params: { id } }),
  unlike: (id: string) => api.sessions.unlike({ params: { id } }),
  /** Every comment, oldest first (the card carries only the newest few). */
  comments: (id: string) => api.sessions.comments({ params: { id } }),
  /** A page of likers, newest first, at the server's default size. */
  likes: (id: string, cursor: string | undefined) => cursorPage(api.sessions.likes.withResponse({ params: { id }, query: { cursor } })),
  comment: (id: string, content: string) => api.sessions.comment({ params: { id }, body: { content } }),
  /** One's own comment, new text (PATCH): the comment answered carries editedAt. */
  editComment: (id: string, commentId: string, content: string) => api.sessions.editComment({ params: { id, commentId }, body: { content } }),
  deleteComment: (id: string, commentId: string) => api.sessions.deleteComment({ params: { id, commentId } }),
  react: (id: string, emoji: string) => api.sessions.react({ params: { id }, body: { emoji } }),
  unreact: (id: string, emoji: string) => api.sessions.unreact({ params: { id }, body: { emoji } }),
};

/** One session as the viewer may see it (`/sessions/:id`). */
export const sessionQuery = (sessionId: string) =>
  queryOptions({ queryKey: sessionKey(sessionId), queryFn: () => api.sessions.get({ params: { id: sessionId } }) });

/** The viewer's own sessions ('My Activities'). */
export const mySessionsQuery = () => queryOptions({ queryKey: MY_SESSIONS_KEY, queryFn: () => api.sessions.mine() });

/** A person's sessions, as their privacy allows (403 for a private profile of a non-friend). */
export const userSessionsQuery = (userId: string) =>
  queryOptions({ queryKey: userSessionsKey(userId), queryFn: () => api.sessions.ofUser({ params: { id: userId } }) });

/**
 * The feed query of one filter: FeedList reads it, and the home page starts
 * it while the current user is still on its way, so the two calls run side by side
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
