import { z } from 'zod';
import {
  BEER_TYPE_MAX,
  BEER_TYPES_MAX,
  COMMENT_MAX,
  FEED_FILTERS,
  FEED_PAGE_DEFAULT,
  FEED_PAGE_MAX,
  LIKES_PAGE_MAX,
  MUSIC_TEXT_MAX,
  normaliseBeerTypes,
  REACTION_EMOJI_MAX,
  REACTION_EMOJIS,
  SESSION_BEER_COUNT_MAX,
  SESSION_DEFAULTS,
  SESSION_DESCRIPTION_MAX,
  SESSION_DURATION_MAX,
  SESSION_LOCATION_MAX,
  SESSION_TITLE_MAX,
  type ReactionEmoji,
} from './constants';
import { pageCursor, pageLimit, pageOffset, uuid } from './common';
import { definePush, type DeclaredPush } from './live';

/**
 * Beer sessions, likes, comments, reactions and the feed (spec sections 3,
 * 4, 5, 7, 9). POST /api/sessions and PUT /api/sessions/{id} take multipart
 * form data: every field arrives as text (beerTypes and musicTrack as JSON),
 * so the form schema parses text; the photos are the file parts `sessionPhoto`
 * (up to SESSION_PHOTOS_MAX, in the order shown).
 */
/**
 * A track: one of the web app's built-in ones, or a song typed by hand
 * (`service: 'manual'`, issue 40: a title and an artist, no album, duration 0
 * for unknown). Each text at most MUSIC_TEXT_MAX characters, after trimming.
 */
export const musicTrack = z.object({
  id: z.string().trim().min(1).max(MUSIC_TEXT_MAX),
  name: z.string().trim().min(1).max(MUSIC_TEXT_MAX),
  artist: z.string().trim().min(1).max(MUSIC_TEXT_MAX),
  album: z.string().trim().max(MUSIC_TEXT_MAX).nullish().transform((v) => v ?? null),
  /** Seconds. */
  duration: z.number().int().min(0).max(24 * 3600),
  imageUrl: z.string().max(1000).nullish().transform((v) => v ?? null),
  service: z.enum(['spotify', 'manual']),
  externalUrl: z.string().max(1000).nullish().transform((v) => v ?? null),
});
export type MusicTrack = z.infer<typeof musicTrack>;
/**
 * A track as replies carry it: what `musicTrack` parses to, without the
 * transforms (reply schemas compile to JSON Schema, services/runtime/src/http/reply-serializer.ts).
 */
export const storedMusicTrack = musicTrack.extend({
  album: z.string().nullable(),
  imageUrl: z.string().nullable(),
  externalUrl: z.string().nullable(),
});

// ---- The multipart form (every value is text) ----

const blankToNull = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max * 4, { error: `${field} must be at most ${max} characters` })
    .optional()
    .transform(blankToNull)
    .refine((v) => v === null || v.length <= max, { error: `${field} must be at most ${max} characters` });

const wholeNumber = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a number` })
    .trim()
    .regex(/^\d+$/, { error: `${field} must be a whole number` })
    .transform(Number)
    .refine((n) => n >= 1, { error: `${field} must be at least 1` })
    .refine((n) => n <= max, { error: `${field} must be at most ${max}` });

/** Optional numeric text kept as text (the spec stores avgAbv, latitude and longitude as text). */
const numericText = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a number` })
    .max(30, { error: `${field} must be a number` })
    .optional()
    .transform(blankToNull)
    .refine((v) => v === null || (/^-?\d+(\.\d+)?$/.test(v) && Number(v) >= min && Number(v) <= max), {
      error: `${field} must be a number from ${min} to ${max}`,
    });

function jsonField<T extends z.ZodType>(field: string, schema: T, message: string) {
  return z.string({ error: `${field} must be JSON text` }).transform((text, ctx): z.infer<T> | typeof z.NEVER => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return result.data;
  });
}

const beerTypesJson = jsonField(
  'beerTypes',
  z.array(z.string().max(BEER_TYPE_MAX)).max(BEER_TYPES_MAX * 2).transform(normaliseBeerTypes).refine((t) => t.length <= BEER_TYPES_MAX),
  `beerTypes must be a JSON array of at most ${BEER_TYPES_MAX} texts of at most ${BEER_TYPE_MAX} characters`,
);
const musicTrackJson = z
  .string({ error: 'musicTrack must be JSON text' })
  .transform((text) => (text.trim() === '' || text.trim() === 'null' ? 'null' : text))
  .pipe(jsonField('musicTrack', musicTrack.nullable(), 'musicTrack must be a JSON track with id, name, artist, duration and service'));

const sessionFields = {
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, { error: 'Title is required' })
    .max(SESSION_TITLE_MAX, { error: `Title must be at most ${SESSION_TITLE_MAX} characters` }),
  description: optionalText('description', SESSION_DESCRIPTION_MAX),
  location: optionalText('location', SESSION_LOCATION_MAX),
  beerCount: wholeNumber('beerCount', SESSION_BEER_COUNT_MAX),
  duration: wholeNumber('duration', SESSION_DURATION_MAX),
  avgAbv: numericText('avgAbv', 0, 100),
  latitude: numericText('latitude', -90, 90),
  longitude: numericText('longitude', -180, 180),
  beerTypes: beerTypesJson,
  musicTrack: musicTrackJson,
};

/** POST /api/sessions: text fields of the form; defaults beerCount 1, duration 60 (spec 9). */
export const createSessionForm = z.object({
  ...sessionFields,
  beerCount: sessionFields.beerCount.optional().transform((v) => v ?? SESSION_DEFAULTS.beerCount),
  duration: sessionFields.duration.optional().transform((v) => v ?? SESSION_DEFAULTS.duration),
  beerTypes: sessionFields.beerTypes.optional().transform((v) => v ?? []),
  musicTrack: sessionFields.musicTrack.optional().transform((v) => v ?? null),
});
export type CreateSessionForm = z.infer<typeof createSessionForm>;

/**
 * PUT /api/sessions/{id}: the same fields; a field left out keeps its value,
 * an empty optional field clears it. `removePhoto=true` drops every photo; new
 * `sessionPhoto` parts replace the whole list (no part: the photos stay).
 */
/** Left out stays left out (undefined: keep the stored value); sent blank becomes null (clear it). */
const absentOr = <T extends z.ZodType>(schema: T) => z.union([z.undefined(), schema]);

export const updateSessionForm = z.object({
  title: sessionFields.title.optional(),
  description: absentOr(sessionFields.description),
  location: absentOr(sessionFields.location),
  beerCount: sessionFields.beerCount.optional(),
  duration: sessionFields.duration.optional(),
  avgAbv: absentOr(sessionFields.avgAbv),
  latitude: absentOr(sessionFields.latitude),
  longitude: absentOr(sessionFields.longitude),
  beerTypes: sessionFields.beerTypes.optional(),
  musicTrack: sessionFields.musicTrack.optional(),
  removePhoto: z.enum(['true', 'false'], { error: "removePhoto must be 'true' or 'false'" }).optional(),
});
export type UpdateSessionForm = z.infer<typeof updateSessionForm>;

// ---- Queries and bodies ----

export const feedQuery = z.object({
  filter: z.enum(FEED_FILTERS, { error: "filter must be 'all', 'following' or 'mine'" }).default('all'),
  cursor: pageCursor,
  limit: pageLimit(FEED_PAGE_DEFAULT, FEED_PAGE_MAX),
});
export type FeedQuery = z.infer<typeof feedQuery>;

export const sessionListQuery = z.object({ limit: pageLimit(20, FEED_PAGE_MAX), offset: pageOffset });

export const commentBody = z.object({
  content: z
    .string({ error: 'Comment cannot be empty' })
    .trim()
    .min(1, { error: 'Comment cannot be empty' })
    .max(COMMENT_MAX, { error: `Comment must be at most ${COMMENT_MAX} characters` }),
});

/**
 * Media's orphan sweep asks sessions which stored session photos a session
 * still names (issue 38, item 6): the keys (`uploads/<owner>/<id>.webp`) of a
 * batch of objects; the answer is the ones named, the rest are orphans. At
 * most NAMED_PHOTOS_MAX keys a call (the sweep's batch is smaller).
 */
export const NAMED_PHOTOS_MAX = 1000;
export const namedPhotosQuery = z.object({ keys: z.array(z.string().min(1).max(300)).max(NAMED_PHOTOS_MAX) });
export const namedPhotosAnswer = z.object({ named: z.array(z.string()) });

export const reactionBody = z.object({
  emoji: z
    .string({ error: 'emoji is required' })
    .max(REACTION_EMOJI_MAX, { error: `emoji must be at most ${REACTION_EMOJI_MAX} characters` })
    .refine((e): e is ReactionEmoji => (REACTION_EMOJIS as readonly string[]).includes(e), { error: 'emoji must be one of the 18 reactions' }),
});

export const sessionCommentParams = z.object({ id: uuid, commentId: uuid });

// ---- Responses ----

/** Who did something, as the cards show them. */
export const sessionPerson = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type SessionPerson = z.infer<typeof sessionPerson>;

export const sessionComment = z.object({
  id: uuid,
  sessionId: uuid,
  userId: uuid,
  content: z.string(),
  createdAt: z.string(),
  /** When its author last edited it (PATCH /api/sessions/{id}/comments/{commentId}); null while never edited. */
  editedAt: z.string().nullable(),
  user: sessionPerson,
});
export type SessionComment = z.infer<typeof sessionComment>;

export const reactionSummary = z.object({
  emoji: z.string(),
  count: z.number().int(),
  users: z.array(z.object({ id: uuid, displayName: z.string() })),
});
export type ReactionSummary = z.infer<typeof reactionSummary>;

/** The spec's feed-session shape, plus the reactions summary and coordinates. */
export const feedSession = z.object({
  id: uuid,
  userId: uuid,
  user: sessionPerson,
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  latitude: z.string().nullable(),
  longitude: z.string().nullable(),
  /** The first of `photos` (what clients that know one photo show). */
  photo: z.string().nullable(),
  /** Every photo, in the order picked, each signed for the viewer; at most SESSION_PHOTOS_MAX. */
  photos: z.array(z.string()),
  beerCount: z.number().int(),
  duration: z.number().int(),
  avgAbv: z.string().nullable(),
  beerTypes: z.array(z.string()),
  musicTrack: storedMusicTrack.nullable(),
  likeCount: z.number().int(),
  commentCount: z.number().int(),
  isLikedByCurrentUser: z.boolean(),
  /** The three newest likers (the card's avatars; likeCount has the rest, GET /api/sessions/{id}/likes lists them all). */
  likes: z.array(z.object({ id: uuid, userId: uuid, user: sessionPerson })),
  /** The newest COMMENTS_IN_CARD, oldest first (commentCount has the total; GET /api/sessions/{id}/comments has them all). */
  comments: z.array(sessionComment),
  /** Per emoji the count and up to three people, and the viewer when they chose it (GET /api/sessions/{id}/reactions names everyone). */
  reactions: z.array(reactionSummary),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FeedSession = z.infer<typeof feedSession>;

/** One like in the full list (GET /api/sessions/{id}/likes), newest first. */
export const sessionLike = z.object({ id: uuid, userId: uuid, user: sessionPerson, createdAt: z.string() });
export type SessionLike = z.infer<typeof sessionLike>;
export const likeListQuery = z.object({ cursor: pageCursor, limit: pageLimit(50, LIKES_PAGE_MAX) });

/** The spec's public-session shape (a profile's Beer Sessions tab). */
export const publicSession = z.object({
  id: uuid,
  title: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  beerCount: z.number().int(),
  duration: z.number().int(),
  averageAbv: z.string().nullable(),
  location: z.string().nullable(),
  photos: z.array(z.string()),
  likesCount: z.number().int(),
});
export type PublicSession = z.infer<typeof publicSession>;

export const likeResponse = z.object({ liked: z.boolean(), likeCount: z.number().int() });
export type LikeResponse = z.infer<typeof likeResponse>;

// ---- Live delivery ----

/**
 * `event: feed` — the fan-out copied a person's earlier sessions (`authorId`'s)
 * onto the viewer's timeline: a new friendship, a request, an unmute. The
 * feed refetches then, not on the friendship's own push: the copy runs on
 * another service after it and may finish later (issue 40, item 8).
 */
export const liveFeedEvent = z.object({ authorId: uuid });
export type LiveFeedEvent = z.infer<typeof liveFeedEvent>;

/** The feed's push: to the person whose timeline was backfilled, and nobody else (the author learns nothing). */
export const sessionsLivePushes: DeclaredPush[] = [
  definePush({
    stream: 'SESSIONS',
    event: 'session.timeline.backfilled.v1',
    name: 'feed',
    to: (data) => [data.userId],
    payload: (data): LiveFeedEvent => ({ authorId: data.authorId }),
  }),
];
