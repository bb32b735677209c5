import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  AnswerInvitationBody,
  Challenge,
  ChallengeDetail,
  ChallengeInvitation,
  ChallengeInvitations,
  CompletedChallenge,
  InviteBody,
  JoinChallengeBody,
} from '@hoptrack/proto';
import { apiRequest } from './api';
import { userKey } from './socialApi';

/**
 * Daily challenges (issue 23). The viewer's "today" is the date in the
 * browser's time zone, sent with every read and join. Keys hang below
 * `['/api/challenges']` with their own query fns (the time zone and paging
 * travel in the query string), so the root as a prefix refetches every
 * challenge read of the viewer; a profile's row hangs below the user, as the
 * other profile reads do, so a block or an unfriending refetches it too.
 */
export const CHALLENGES_ROOT = ['/api/challenges'] as const;
export const TODAY_CHALLENGES_KEY = [...CHALLENGES_ROOT, 'today'] as const;
export const challengeKey = (id: string) => [...CHALLENGES_ROOT, id] as const;
export const MY_COMPLETED_CHALLENGES_KEY = [...CHALLENGES_ROOT, 'mine', 'completed'] as const;
export const CHALLENGE_INVITATIONS_KEY = [...CHALLENGES_ROOT, 'invitations'] as const;
export const userChallengesKey = (userId: string) => [...userKey(userId), 'challenges'] as const;

/** A page of the completed list; fewer than this means it was the last. */
export const COMPLETED_PAGE_SIZE = 20;

/** The browser's IANA zone ("Europe/Berlin"): the server counts "today" in it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const zoneQuery = () => `timeZone=${encodeURIComponent(browserTimeZone())}`;
const challengeUrl = (id: string) => `/api/challenges/${encodeURIComponent(id)}`;

export const challengesApi = {
  today: () => apiRequest<Challenge[]>('GET', `/api/challenges?${zoneQuery()}`),
  detail: (id: string) => apiRequest<ChallengeDetail>('GET', `${challengeUrl(id)}?${zoneQuery()}`),
  completed: (offset: number) =>
    apiRequest<Challenge[]>('GET', `/api/me/challenges?status=completed&limit=${COMPLETED_PAGE_SIZE}&offset=${offset}`),
  ofUser: (userId: string) => apiRequest<CompletedChallenge[]>('GET', `/api/users/${encodeURIComponent(userId)}/challenges`),
  /** Idempotent: joining twice answers the same card. */
  join: (id: string) => apiRequest<Challenge>('POST', `${challengeUrl(id)}/join`, { timeZone: browserTimeZone() } satisfies JoinChallengeBody),
  /** Also joins the inviter (the server's rule). */
  invite: (id: string, friendId: string) =>
    apiRequest<ChallengeInvitation>('POST', `${challengeUrl(id)}/invitations`, { friendId } satisfies InviteBody),
  invitations: () => apiRequest<ChallengeInvitations>('GET', '/api/challenge-invitations'),
  /** Accepting joins the recipient, in this browser's zone. */
  answer: (invitationId: string, action: AnswerInvitationBody['action']) =>
    apiRequest<ChallengeInvitation>('PATCH', `/api/challenge-invitations/${encodeURIComponent(invitationId)}`, {
      action,
      timeZone: browserTimeZone(),
    } satisfies AnswerInvitationBody),
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
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CHALLENGES_ROOT }),
    queryClient.invalidateQueries({ queryKey: userChallengesKey(viewerId) }),
  ]);
}
