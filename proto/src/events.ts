import { z } from 'zod';
import { uuid } from './common';
import { ROLES } from './roles';
import { liveMessageEvent, liveReadEvent } from './messaging';

/**
 * Events on NATS JetStream. The subject of an event is its type name, prefixed
 * by the deployment's bus namespace (`hoptrack.user.registered.v1`).
 * Type names are a persisted contract: a new shape gets a new version (`.v2`),
 * never an edit, or consumers strand on messages they cannot read. The one
 * edit allowed is a new optional field: every consumer reads the old messages
 * still in the stream without it.
 */

/** What every service may know about a user: public profile, privacy switches, email for search. */
export const userSnapshot = z.object({
  id: uuid,
  email: z.string(),
  username: z.string(),
  displayName: z.string(),
  bio: z.string().nullable(),
  avatar: z.string().nullable(),
  profilePicture: z.string().nullable(),
  isProfilePrivate: z.boolean(),
  allowDirectMessages: z.boolean(),
  showOnlineStatus: z.boolean(),
  /** Whether friends may see the e-mail address (issue 40). Absent on events published before: not shown. */
  showEmailToFriends: z.boolean().optional(),
  /** Bumped by a password reset: tokens carrying an older version are void everywhere. */
  tokenVersion: z.number().int().nonnegative(),
  /**
   * The staff roles the person holds (issue 42), checked by every service
   * from its people table like the token version. Absent on events published
   * before: none.
   */
  roles: z.array(z.enum(ROLES)).optional(),
  /**
   * A moderator's restriction of the account (issue 42): suspended until
   * this time, or banned until an unban. Every service refuses the person's
   * tokens while either holds, from its people table. Absent on events
   * published before: none.
   */
  suspendedUntil: z.string().nullable().optional(),
  banned: z.boolean().optional(),
  createdAt: z.string(),
  /** Information only: written by whichever replica made the change, from its own clock, so it orders nothing. */
  updatedAt: z.string(),
  /**
   * The account's version, incremented by auth in the statement that makes
   * the change: snapshots are ordered by it, never by a clock (issue 38).
   * Absent on events published before; see runtime/src/db/snapshot.ts.
   */
  version: z.number().int().positive().optional(),
});
export type UserSnapshot = z.infer<typeof userSnapshot>;

/** What other services need of a session: whose, when, how many beers over how long. */
const sessionFacts = z.object({
  sessionId: uuid,
  userId: uuid,
  beerCount: z.number().int(),
  /** Minutes. */
  duration: z.number().int(),
  /** Added for notifications' texts ("liked Friday pints"); absent on events published before. */
  title: z.string().optional(),
  /** Added for challenges (issue 23): the styles, the place as typed, and whether a track was logged; absent on events published before. */
  beerTypes: z.array(z.string()).optional(),
  location: z.string().nullable().optional(),
  hasMusic: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The session's version, incremented by sessions with each edit: what orders two snapshots (issue 38). Absent on events published before. */
  version: z.number().int().positive().optional(),
});

/** Someone (userId) did something to ownerId's session. */
const interaction = z.object({ sessionId: uuid, ownerId: uuid, userId: uuid });

const pair = z.object({ friendshipId: uuid, requesterId: uuid, recipientId: uuid });
const between = z.object({ userId: uuid, friendId: uuid });
const block = z.object({ blockerId: uuid, blockedId: uuid });

export const eventSchemas = {
  'user.registered.v1': userSnapshot,
  'user.updated.v1': userSnapshot,
  /**
   * The account is gone (DELETE /api/me): every service erases what belongs to
   * the person, then reports user.erased.v1. Replays erase nothing more.
   */
  'user.deleted.v1': z.object({ userId: uuid }),
  /**
   * userId signed device `deviceId` out (DELETE /api/me/devices/:id): its tokens are refused at every
   * service from the answer on (the USERS barrier). Every token of that sign-in expires by `expiresAt`,
   * so a service forgets the device then.
   */
  'user.device.revoked.v1': z.object({ userId: uuid, deviceId: uuid, expiresAt: z.string() }),
  /**
   * A consumer of USERS (`consumer`, its durable) found events its stream deleted unread — it was
   * away longer than the streams' age: auth announces again every account changed since `since`
   * (user.updated.v1, ordered by version) and every deletion recorded since (user.deleted.v1).
   */
  'user.changes.requested.v1': z.object({ since: z.string(), consumer: z.string() }),
  /**
   * `service` erased everything of userId it held (its answer to user.deleted.v1, stored at `deletedSeq` of
   * the USERS stream): auth deletes that message and this one from the stream once every consumer has them
   * (a deletion replayed from outside auth's outbox is found so, without reading the stream).
   */
  'user.erased.v1': z.object({ userId: uuid, service: z.string(), deletedSeq: z.number().int().positive().optional() }),
  /** userId asked for their data (POST /api/me/export): every service contributes its part. */
  'user.export.requested.v1': z.object({ exportId: uuid, userId: uuid }),
  /** `service` put its part of the export in the exports object store (`<exportId>/<service>.json`). */
  'user.export.contributed.v1': z.object({ exportId: uuid, userId: uuid, service: z.string() }),
  /**
   * Media assembled the zip (S3 `key`, `size` bytes) and keeps it until `expiresAt` (absent on events from before
   * issue 39: EXPORT_DEFAULT_TTL_MS after it was ready); the person's earlier zips are gone. Auth marks the export
   * ready, the earlier ones expired, and tells the person.
   */
  'user.export.ready.v1': z.object({ exportId: uuid, userId: uuid, key: z.string(), size: z.number().int().nonnegative(), expiresAt: z.string().optional() }),
  /** requester asked recipient; requester now follows recipient. */
  'social.friendship.requested.v1': pair,
  /** The two are friends (both directions). */
  'social.friendship.accepted.v1': pair,
  /** The request is gone (rejected by the recipient or withdrawn by the requester); nobody follows anybody because of it. */
  'social.friendship.rejected.v1': pair,
  /** An accepted friendship ended (unfriend); neither follows the other. */
  'social.friendship.removed.v1': between,
  /** Implies any friendship or request between the two is gone; they must not see each other. */
  'social.user.blocked.v1': block,
  'social.user.unblocked.v1': block,
  /** userId no longer wants friendId's sessions in their feed. */
  'social.friend.muted.v1': between,
  'social.friend.unmuted.v1': between,
  'social.friend.pinned.v1': between.extend({ order: z.number().int() }),
  'social.friend.unpinned.v1': between,
  /** An original is in S3 and waits for the thumbnail worker. */
  'media.photo.stored.v1': z.object({ photoId: uuid, userId: uuid, albumId: uuid, key: z.string() }),
  /** Thumbnail and display versions exist; the photo is ready. */
  'media.photo.processed.v1': z.object({
    photoId: uuid,
    userId: uuid,
    albumId: uuid,
    thumbnailKey: z.string(),
    displayKey: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  /** The photo and its files are gone (its owner deleted it, or its album). */
  'media.photo.deleted.v1': z.object({ photoId: uuid, userId: uuid, albumId: uuid }),
  /** The original could not be processed (corrupt, not decodable); it will not be retried. */
  'media.photo.failed.v1': z.object({ photoId: uuid, userId: uuid, albumId: uuid, reason: z.string() }),
  /** A beer session was logged; the fan-out worker puts it on timelines, social-graph counts it. */
  'session.created.v1': sessionFacts,
  /** Its facts changed (beer count, duration); the whole new state. */
  'session.updated.v1': sessionFacts,
  /** It is gone, with its likes, comments and reactions. */
  'session.deleted.v1': z.object({ sessionId: uuid, userId: uuid }),
  /** userId liked the session (only when the like is new: liking twice publishes once). */
  'session.liked.v1': interaction,
  'session.unliked.v1': interaction,
  'session.commented.v1': interaction.extend({ commentId: uuid, content: z.string() }),
  /** userId, the comment's author, changed its content (the new text). */
  'session.comment.edited.v1': interaction.extend({ commentId: uuid, content: z.string() }),
  /** userId (the comment's author or the session's owner) deleted a comment. */
  'session.comment.deleted.v1': interaction.extend({ commentId: uuid }),
  'session.reacted.v1': interaction.extend({ emoji: z.string() }),
  'session.unreacted.v1': interaction.extend({ emoji: z.string() }),
  /**
   * The fan-out copied authorId's earlier sessions onto userId's timeline (a request, a new
   * friendship, an unmute): the feed the person reads has them now. Published by the fan-out
   * worker straight to the bus once the timeline is written; only the live push reads it.
   */
  'session.timeline.backfilled.v1': z.object({ userId: uuid, authorId: uuid }),
  /** userId reviewed a bar (one review per person and bar; a changed review is a new one). */
  'place.review.created.v1': z.object({ reviewId: uuid, barId: uuid, userId: uuid, createdAt: z.string() }),
  'place.review.deleted.v1': z.object({ reviewId: uuid, barId: uuid, userId: uuid }),
  /** A direct message was stored; every messaging instance pushes it to the two participants' open streams. */
  'message.sent.v1': liveMessageEvent,
  /** readerId read `count` of senderId's messages in the conversation (read receipts, badges). */
  'message.read.v1': liveReadEvent,
  /** userId's inbox changed (a new or regrouped entry, a retraction, a read): every messaging instance tells their open streams. */
  'notification.changed.v1': z.object({ userId: uuid, unreadCount: z.number().int().nonnegative() }),
  /** userId's progress reached the target: published once per person and challenge, and again only after a withdrawal and new evidence. */
  'challenge.completed.v1': z.object({ challengeId: uuid, userId: uuid, title: z.string(), date: z.string(), completedAt: z.string() }),
  /**
   * userId's completion is taken back: a fact it counted (a session, review or
   * album photo) was deleted or changed and the progress fell below the target.
   * The completed lists drop it; the inbox takes its entry back.
   */
  'challenge.completion.withdrawn.v1': z.object({ challengeId: uuid, userId: uuid }),
  /** fromUserId invited toUserId (a friend) to a challenge. */
  'challenge.invited.v1': z.object({ invitationId: uuid, challengeId: uuid, fromUserId: uuid, toUserId: uuid, title: z.string() }),
  /** toUserId accepted or declined. */
  'challenge.invitation.answered.v1': z.object({
    invitationId: uuid,
    challengeId: uuid,
    fromUserId: uuid,
    toUserId: uuid,
    status: z.enum(['accepted', 'declined']),
  }),
  /**
   * userId went online or offline (or their switch hid it: offline, no last
   * seen), for `audience` (the friends who may see it). Not in a stream:
   * published on core NATS by the messaging instance that saw the change,
   * heard by every instance for its open live streams, never stored (a
   * client refetches presence on each reconnect).
   */
  'presence.changed.v1': z.object({ userId: uuid, online: z.boolean(), lastSeenAt: z.string().nullable(), audience: z.array(uuid) }),
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

/** The envelope every event travels in; `id` doubles as the JetStream msgID for de-duplication. */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  occurredAt: string;
  /** The request id of the HTTP call that caused the event, for log correlation. */
  requestId?: string;
  data: EventData<T>;
}

export const envelopeBase = z.object({
  id: uuid,
  type: z.string(),
  occurredAt: z.string(),
  requestId: z.string().optional(),
  data: z.unknown(),
});

/** Parses an envelope and its payload against the schema of its type. */
export function parseEvent(raw: unknown): EventEnvelope {
  const envelope = envelopeBase.parse(raw);
  if (!(envelope.type in eventSchemas)) throw new Error(`Unknown event type ${envelope.type}`);
  const type = envelope.type as EventType;
  const data = eventSchemas[type].parse(envelope.data);
  return { ...envelope, type, data };
}

/** JetStream streams and the event types each one holds. */
export const streams = {
  USERS: { subjects: ['user.>'] },
  SOCIAL: { subjects: ['social.>'] },
  MEDIA: { subjects: ['media.>'] },
  SESSIONS: { subjects: ['session.>'] },
  MESSAGES: { subjects: ['message.>'] },
  NOTIFICATIONS: { subjects: ['notification.>'] },
  PLACES: { subjects: ['place.>'] },
  CHALLENGES: { subjects: ['challenge.>'] },
  /** Events no consumer could handle (poison): kept for an operator to inspect and replay (docs/operations.md). */
  DEADLETTER: { subjects: ['deadletter.>'] },
} as const;
export type StreamName = keyof typeof streams;

export function subjectFor(namespace: string, type: EventType): string {
  return `${namespace}.${type}`;
}
export function streamNameFor(namespace: string, stream: StreamName): string {
  return `${namespace.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}_${stream}`;
}

/** The stream an event type is stored in (by its subject), or null for one published on core NATS only (presence). */
export function streamOf(type: EventType): StreamName | null {
  for (const [name, stream] of Object.entries(streams) as Array<[StreamName, (typeof streams)[StreamName]]>) {
    if (stream.subjects.some((subject) => type.startsWith(subject.slice(0, -1)))) return name;
  }
  return null;
}
