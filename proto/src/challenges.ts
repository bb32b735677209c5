import { z } from 'zod';
import { pageLimit, pageOffset, uuid } from './common';
import { definePush, type DeclaredPush } from './live';

/**
 * Daily challenges and invitations (issue 23; docs/decisions.md, 'Challenges').
 * A generator publishes a few challenges for every calendar date from the
 * catalogue below; a person's "today" is the date in their own time zone.
 * Challenges reward trying, visiting, sharing and pacing — never a count of
 * beers or their strength.
 */

/**
 * The catalogue. `challengeType` names a kind; like event types, kinds are a
 * persisted contract (stored rows name them): add kinds, never rename one.
 * `targetValue` is what progress must reach; the progress rule lives in the
 * challenges service (services/challenges/src/domain/rules.ts).
 */
export const CHALLENGE_KINDS = {
  /** Distinct beer styles logged that day that none of the person's earlier sessions had. */
  new_styles: { title: 'Try 3 new styles', description: 'Log beers of three styles you have never logged before.', targetValue: 3 },
  /** A session at a place (its location) none of the person's earlier sessions was at. */
  new_bar: { title: 'Somewhere new', description: 'Log a session at a bar you have not been to before.', targetValue: 1 },
  /** A review of a bar. */
  bar_review: { title: 'Be the critic', description: 'Write a review of a bar you know.', targetValue: 1 },
  /** A photo added to one of the person's albums. */
  album_photo: { title: 'Picture this', description: 'Add a photo to one of your albums.', targetValue: 1 },
  /** A session with a music track. */
  music_session: { title: 'Soundtrack', description: 'Log a session with the music you listened to.', targetValue: 1 },
  /** A session of at least CHALLENGE_SLOW_PACE_MINUTES minutes per beer. */
  slow_pace: { title: 'Take it slow', description: 'Log a session of at least 45 minutes per beer.', targetValue: 1 },
} as const satisfies Record<string, { title: string; description: string; targetValue: number }>;

export type ChallengeKind = keyof typeof CHALLENGE_KINDS;
export const CHALLENGE_KIND_NAMES = Object.keys(CHALLENGE_KINDS) as [ChallengeKind, ...ChallengeKind[]];
export const challengeKind = z.enum(CHALLENGE_KIND_NAMES, { error: 'Unknown challenge type' });
/** `slow_pace`: a session's duration divided by its beers must be at least this. */
export const CHALLENGE_SLOW_PACE_MINUTES = 45;
/** Invitations one person may send for one challenge. */
export const CHALLENGE_INVITATIONS_MAX = 10;
export const CHALLENGES_PAGE_DEFAULT = 20;
export const CHALLENGES_PAGE_MAX = 50;

export const CHALLENGE_MESSAGES = {
  ended: 'This challenge has ended.',
  friendsOnly: 'You can only invite friends.',
  self: 'You cannot invite yourself.',
  duplicate: 'You have already invited this friend.',
  alreadyIn: 'Your friend is already in this challenge.',
  cap: `You can invite at most ${CHALLENGE_INVITATIONS_MAX} friends to a challenge.`,
  recipientOnly: 'Only the invited person can answer an invitation.',
  answered: 'This invitation was already answered.',
  expired: 'This invitation has expired.',
} as const;

/** The zone's canonical name (`eUrOpE/bErLiN` → `Europe/Berlin`), or null when Intl knows no such zone. */
function canonicalZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * An IANA time zone ("Europe/Berlin"): the person's "today". The web app
 * sends the browser's; without one, UTC. Intl takes a zone in any letter
 * case; the schema answers its canonical name, so every spelling of one
 * zone is one value downstream (issue 39: each spelling was a cache entry).
 */
export const timeZone = z
  .string({ error: 'timeZone must be text' })
  .max(64, { error: 'timeZone must be a time zone such as Europe/Berlin' })
  .transform((zone, ctx) => {
    const canonical = canonicalZone(zone);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: 'timeZone must be a time zone such as Europe/Berlin' });
      return z.NEVER;
    }
    return canonical;
  });

// ---- Queries and bodies ----

export const challengesQuery = z.object({ timeZone: timeZone.optional() });
export const joinChallengeBody = z.object({ timeZone: timeZone.optional() }).default({});
export type JoinChallengeBody = z.infer<typeof joinChallengeBody>;

export const myChallengesQuery = z.object({
  status: z.enum(['current', 'completed'], { error: "status must be 'current' or 'completed'" }).default('current'),
  limit: pageLimit(CHALLENGES_PAGE_DEFAULT, CHALLENGES_PAGE_MAX),
  offset: pageOffset,
});
export type MyChallengesQuery = z.infer<typeof myChallengesQuery>;
export const completedChallengesQuery = z.object({ limit: pageLimit(CHALLENGES_PAGE_DEFAULT, CHALLENGES_PAGE_MAX), offset: pageOffset });

export const inviteBody = z.object({ friendId: uuid });
export type InviteBody = z.infer<typeof inviteBody>;

export const answerInvitationBody = z.object({
  action: z.enum(['accept', 'decline'], { error: "action must be 'accept' or 'decline'" }),
  /** The recipient's time zone, for the challenge an accept joins. */
  timeZone: timeZone.optional(),
});
export type AnswerInvitationBody = z.infer<typeof answerInvitationBody>;

// ---- Responses ----

export const challengePerson = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type ChallengePerson = z.infer<typeof challengePerson>;

export const challenge = z.object({
  id: uuid,
  title: z.string(),
  description: z.string(),
  challengeType: challengeKind,
  targetValue: z.number().int(),
  /** The calendar date (YYYY-MM-DD) it is for, in each person's own time zone. */
  date: z.string(),
  isActive: z.boolean(),
  /** When the day ends for this viewer (the time zone they joined in, or the one asked with). */
  endsAt: z.string(),
  joined: z.boolean(),
  progress: z.number().int(),
  isCompleted: z.boolean(),
  completedAt: z.string().nullable(),
  /** Friends of the viewer in it. */
  friendCount: z.number().int(),
});
export type Challenge = z.infer<typeof challenge>;

export const challengeParticipant = z.object({
  person: challengePerson,
  progress: z.number().int(),
  isCompleted: z.boolean(),
  completedAt: z.string().nullable(),
});
export type ChallengeParticipant = z.infer<typeof challengeParticipant>;

/** A challenge's page: the viewer's card and the friends in it, best progress first. */
export const challengeDetail = challenge.extend({ participants: z.array(challengeParticipant) });
export type ChallengeDetail = z.infer<typeof challengeDetail>;

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'expired'] as const;
export const challengeInvitation = z.object({
  id: uuid,
  challenge: z.object({ id: uuid, title: z.string(), challengeType: challengeKind, targetValue: z.number().int(), date: z.string() }),
  from: challengePerson,
  to: challengePerson,
  /** `expired`: still pending when the challenge's day ended. */
  status: z.enum(INVITATION_STATUSES),
  createdAt: z.string(),
  respondedAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type ChallengeInvitation = z.infer<typeof challengeInvitation>;

export const challengeInvitations = z.object({ received: z.array(challengeInvitation), sent: z.array(challengeInvitation) });
export type ChallengeInvitations = z.infer<typeof challengeInvitations>;

/** A profile's row of completed challenges (GET /api/users/{id}/challenges). */
export const completedChallenge = z.object({
  id: uuid,
  title: z.string(),
  challengeType: challengeKind,
  date: z.string(),
  completedAt: z.string(),
});
export type CompletedChallenge = z.infer<typeof completedChallenge>;

/**
 * `event: challenges` — an invitation the viewer sent or received was
 * answered (issue 40: the sender's list said 'Pending' until a reload; the
 * answer makes no notification, so the bell's count told nothing).
 */
export const liveChallengesEvent = z.object({ invitationId: uuid, challengeId: uuid, status: z.enum(['accepted', 'declined']) });
export type LiveChallengesEvent = z.infer<typeof liveChallengesEvent>;

/** The challenges feature's push: an answer to both people's streams (every tab of the one who answered too). */
export const challengesLivePushes: DeclaredPush[] = [
  definePush({
    stream: 'CHALLENGES',
    event: 'challenge.invitation.answered.v1',
    name: 'challenges',
    to: (data) => [data.fromUserId, data.toUserId],
    payload: (data): LiveChallengesEvent => ({ invitationId: data.invitationId, challengeId: data.challengeId, status: data.status }),
  }),
];
