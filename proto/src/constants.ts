/**
 * The contracts' plain values: limits, page sizes, header names, fixed lists
 * and texts (and one pure helper the forms share with the schemas), without
 * zod and without imports. The schema files build on them, and the web app
 * imports them from `@hoptrack/proto/constants`, so a screen that needs a
 * limit does not load every zod schema of the index with it: the signed-in
 * first screen loads no zod at all (web/e2e/speed.test.ts). Each value is
 * defined here once; `@hoptrack/proto` re-exports them all.
 */

// ---- Lists (common.ts) ----

/** The header carrying the cursor of the next page; absent on the last page. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

// ---- Auth, current user and privacy (auth.ts) ----

export const PASSWORD_MIN = 6;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 200;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Verification links work for a day (issue 24): long enough to find the mail the next morning. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

export const PRIVACY_KEYS = ['isProfilePrivate', 'allowDirectMessages', 'showOnlineStatus', 'showEmailToFriends'] as const;
export type PrivacyKey = (typeof PRIVACY_KEYS)[number];

// ---- Media (media.ts) ----

export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_PICKER_MAX = 10;
/**
 * Photos one beer session holds (the `sessionPhoto` parts of its form): the
 * picker's limit, so everything the Log dialog keeps is stored.
 */
export const SESSION_PHOTOS_MAX = PHOTO_PICKER_MAX;
/** Images larger than this many pixels are refused before decoding (decompression bombs). */
export const IMAGE_MAX_PIXELS = 40_000_000;
export const ALBUM_NAME_MAX = 100;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_STATUSES = ['processing', 'ready', 'failed'] as const;

// ---- Messaging (messaging.ts) ----

export const MESSAGE_MAX = 2000;
export const CONVERSATION_PAGE_DEFAULT = 50;
export const CONVERSATION_PAGE_MAX = 100;
export const MESSAGE_PAGE_DEFAULT = 50;
export const MESSAGE_PAGE_MAX = 100;
/** Server-sent events of the viewer's messaging: new messages and read receipts, from every instance. */
export const LIVE_EVENTS_PATH = '/api/messages/events';
/** Sent as an SSE comment at this interval so proxies (the gateway's idle timeout is 30 s) keep the stream open. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** Who of several people is online (GET /api/presence?ids=…, messaging): the most one call asks about. */
export const PRESENCE_PATH = '/api/presence';
export const PRESENCE_IDS_MAX = 100;

// ---- The catalogue (places.ts) ----

export const EARTH_RADIUS_MILES = 3959;
/**
 * A nearby search without a radius (spec section 9: 'default radius 2000').
 * The 5000 m and 10000 m steps are Find Venues' own fall-back chain, which
 * always sends its radius.
 */
export const NEARBY_DEFAULT_RADIUS_M = 2000;
export const NEARBY_MAX_RADIUS_M = 50_000;
export const CATALOGUE_SEARCH_MAX = 100;
export const REVIEW_TEXT_MAX = 2000;
/** How many of the newest reviews a bar's detail carries; the rest are paged from /api/bars/{id}/reviews. */
export const BAR_DETAIL_REVIEWS = 5;
export const PLACES_STATUSES = ['OK', 'ZERO_RESULTS', 'NOT_FOUND', 'INVALID_REQUEST'] as const;

// ---- Sessions and the feed (sessions.ts) ----

export const SESSION_TITLE_MAX = 100;
export const SESSION_DESCRIPTION_MAX = 1000;
export const SESSION_LOCATION_MAX = 200;
export const SESSION_BEER_COUNT_MAX = 100;
/** A day: longer is a different kind of problem. */
export const SESSION_DURATION_MAX = 24 * 60;
export const BEER_TYPE_MAX = 50;
export const BEER_TYPES_MAX = 20;
export const COMMENT_MAX = 500;
/** A music track's id, name, artist and album: at most this many characters each (a song typed by hand too). */
export const MUSIC_TEXT_MAX = 200;
export const REACTION_EMOJI_MAX = 10;
export const SESSION_DEFAULTS = { beerCount: 1, duration: 60 } as const;
/** Page size of the feed and of session lists. */
export const FEED_PAGE_DEFAULT = 10;
export const FEED_PAGE_MAX = 50;
/** How many of the newest comments a feed card carries. */
export const COMMENTS_IN_CARD = 3;
export const LIKES_PAGE_MAX = 100;

/**
 * The 18 reactions of spec 9, in the order of the reaction bar: thumbs up,
 * heart, laugh, surprise, sad, angry, beer, beers, toast, party, fire, 100,
 * yum, drool, ok, party face, star eyes, raised hands.
 */
export const REACTION_EMOJIS = ['👍', '❤️', '😂', '😮', '😢', '😠', '🍺', '🍻', '🥂', '🎉', '🔥', '💯', '😋', '🤤', '👌', '🥳', '🤩', '🙌'] as const;
export type ReactionEmoji = (typeof REACTION_EMOJIS)[number];

/** Preset beer types of the Log (create) and Edit dialogs (spec 9). */
export const CREATE_BEER_TYPES = ['IPA', 'Lager', 'Stout', 'Porter', 'Wheat', 'Pilsner', 'Ale', 'Sour'] as const;
export const EDIT_BEER_TYPES = ['IPA', 'Lager', 'Stout', 'Pilsner', 'Wheat', 'Porter', 'Pale Ale', 'Belgian', 'Sour', 'Amber', 'Brown Ale', 'Saison'] as const;

export const FEED_FILTERS = ['all', 'following', 'mine'] as const;
export type FeedFilter = (typeof FEED_FILTERS)[number];

/** Custom types trimmed, blanks dropped, duplicates (ignoring case) removed, first spelling kept. */
export function normaliseBeerTypes(types: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of types) {
    const type = raw.trim();
    if (!type || seen.has(type.toLowerCase())) continue;
    seen.add(type.toLowerCase());
    out.push(type);
  }
  return out;
}

// ---- Social graph (social.ts) ----

export const MAX_PINNED_FRIENDS = 5;
export const SEARCH_QUERY_MAX = 100;
/** The people search of /search and of the friends screens starts at this many characters (issue 40: one minimum, not 2 and 3). */
export const SEARCH_QUERY_MIN = 2;
export const FRIENDSHIP_STATUSES = ['accepted', 'sent', 'pending', 'none'] as const;

/** Refusal texts the web turns into 'Access Restricted' (spec section 6). */
export const PRIVATE_FOLLOWERS_MESSAGE = 'This profile is private: you can only view followers of your friends';
export const PRIVATE_FOLLOWING_MESSAGE = 'This profile is private: you can only view following of your friends';
export const PRIVATE_PROFILE_MESSAGE = 'This profile is private';
export const PIN_LIMIT_MESSAGE = 'You can only pin up to 5 friends.';
