import { infiniteQueryOptions, queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { AnswerInvitationBody, Challenge, ChallengeDetail } from '@hoptrack/proto';
import { api } from '../api';

/**
 * Daily challenges (issue 23). The viewer's "today" is the date in the
 * browser's time zone, sent with every read and join. Keys are the
 * contracts' own, without the time zone or the paging (the query fns add
 * them); CHALLENGE_READS lists every challenge read of the viewer, to refetch
 * them all. A profile's row (userChallengesKey) is among the reads about a
 * person (socialApi's USER_READS), so a block or an unfriending refetches it too.
 */
export const TODAY_CHALLENGES_KEY = api.challenges.today.key();
export const challengeKey = (id: string) => api.challenges.detail.key({ params: { id } });
export const MY_COMPLETED_CHALLENGES_KEY = api.challenges.mine.key({ query: { status: 'completed' } });
export const CHALLENGE_INVITATIONS_KEY = api.challenges.invitations.key();
export const userChallengesKey = (userId: string) => api.challenges.completedOf.key({ params: { id: userId } });
export const CHALLENGE_READS: readonly QueryKey[] = [
  TODAY_CHALLENGES_KEY,
  api.challenges.detail.key(),
  api.challenges.mine.key(),
  CHALLENGE_INVITATIONS_KEY,
];

/** A page of the completed list; fewer than this means it was the last. */
export const COMPLETED_PAGE_SIZE = 20;

/** The browser's IANA zone ("Europe/Berlin"): the server counts "today" in it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export const challengesApi = {
  today: () => api.challenges.today({ query: { timeZone: browserTimeZone() } }),
  detail: (id: string) => api.challenges.detail({ params: { id }, query: { timeZone: browserTimeZone() } }),
  completed: (offset: number) => api.challenges.mine({ query: { status: 'completed', limit: COMPLETED_PAGE_SIZE, offset } }),
  ofUser: (userId: string) => api.challenges.completedOf({ params: { id: userId } }),
  /** Idempotent: joining twice answers the same card. */
  join: (id: string) => api.challenges.join({ params: { id }, body: { timeZone: browserTimeZone() } }),
  /** Also joins the inviter (the server's rule). */
  invite: (id: string, friendId: string) => api.challenges.invite({ params: { id }, body: { friendId } }),
  invitations: () => api.challenges.invitations(),
  /** Accepting joins the recipient, in this browser's zone. */
  answer: (invitationId: string, action: AnswerInvitationBody['action']) =>
    api.challenges.answerInvitation({ params: { id: invitationId }, body: { action, timeZone: browserTimeZone() } }),
};

/**
 * Progress moves when the challenges service has counted a session, photo or
 * review, a moment after the write and with no event to this screen (only
 * completion notifies): the open screens read again now and then, on focus,
 * and each time they are opened.
 */
const PROGRESS_REFRESH_MS = 30_000;
const progressReads = { staleTime: 0, refetchOnWindowFocus: true, refetchInterval: PROGRESS_REFRESH_MS } as const;

export const todayChallengesQuery = () => queryOptions({ queryKey: TODAY_CHALLENGES_KEY, queryFn: challengesApi.today, ...progressReads });

export const challengeQuery = (id: string) =>
  queryOptions({ queryKey: challengeKey(id), queryFn: () => challengesApi.detail(id), ...progressReads });

/** Invitations arrive from friends: read afresh whenever the screen opens. */
export const invitationsQuery = () =>
  queryOptions({ queryKey: CHALLENGE_INVITATIONS_KEY, queryFn: challengesApi.invitations, staleTime: 0, refetchOnWindowFocus: true });

export const completedChallengesQuery = () =>
  infiniteQueryOptions({
    queryKey: MY_COMPLETED_CHALLENGES_KEY,
    queryFn: ({ pageParam }) => challengesApi.completed(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < COMPLETED_PAGE_SIZE ? undefined : pages.length * COMPLETED_PAGE_SIZE),
    staleTime: 0,
  });

export const userChallengesQuery = (userId: string) =>
  queryOptions({ queryKey: userChallengesKey(userId), queryFn: () => challengesApi.ofUser(userId), staleTime: 0 });

/** A joined card as the server answered it, written into today's list and the challenge's page at once. */
export function applyJoinedChallenge(queryClient: QueryClient, joined: Challenge): void {
  queryClient.setQueryData<Challenge[]>(TODAY_CHALLENGES_KEY, (list) => list?.map((one) => (one.id === joined.id ? joined : one)));
  queryClient.setQueryData<ChallengeDetail>(challengeKey(joined.id), (detail) => detail && { ...detail, ...joined });
}

/** Every challenge read of the viewer, and their own profile row: a completion or an invitation changed them. */
export function refreshChallenges(queryClient: QueryClient, viewerId: string): Promise<unknown> {
  return Promise.all([...CHALLENGE_READS, userChallengesKey(viewerId)].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
