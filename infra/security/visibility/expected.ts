/**
 * Issue 9, item 12: what each viewer must see of a public and of a private
 * author, surface by surface. Written out cell by cell from the spec
 * (../shared/spec/product-spec.md section 6) and docs/decisions.md — never
 * derived from what the services answer.
 *
 * Spec 6: "Private profile: only friends see sessions, photos and profile
 * info. [...] Blocked users cannot see the profile, message or interact."
 * "Followers/following lists of private profiles can be refused by the
 * server; an error message containing 'only view followers', 'only view
 * following' or 'profile is private' [...]".
 */
export const AUTHOR_KINDS = ['public', 'private'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

/**
 * How the viewer stands to the author when the matrix is read:
 * - self: the author;
 * - friend: friends (asked and accepted);
 * - sent: the viewer asked the author, who has not answered (the viewer follows the author);
 * - received: the author asked the viewer, who has not answered (the author follows the viewer);
 * - stranger: nothing between them;
 * - blockedByAuthor: were friends (and saw the first session in their feed), then the author blocked the viewer;
 * - blocker: had asked the author, then blocked the author;
 * - muted: a friend who muted the author.
 */
export const VIEWER_KINDS = ['self', 'friend', 'sent', 'received', 'stranger', 'blockedByAuthor', 'blocker', 'muted'] as const;
export type ViewerKind = (typeof VIEWER_KINDS)[number];

/**
 * Outcomes, as the matrix records them:
 * - visible: the author's content is there (the marker sessions, the album, the details);
 * - hidden: the call succeeds and the author's content is not in it;
 * - restricted: the author is there by name, their details withheld (canViewDetails false, no bio);
 * - withheld: the field is there and empty (email null, totalSessions 0);
 * - refused:403 / refused:404: refused with that status (and, for 403, the message the web turns into 'Access Restricted').
 */
export type Outcome = 'visible' | 'hidden' | 'restricted' | 'withheld' | 'refused:403' | 'refused:404';

export const SURFACES = [
  'feed.all',
  'feed.following',
  'session.detail',
  'sessions.list',
  'profile.byId',
  'profile.byUsername',
  'profile.email',
  'profile.totalSessions',
  'stats',
  'search',
  'followers',
  'following',
  'hub.followers',
  'albums.list',
  'album.photos',
  'photo.file',
  'photo.unsigned',
] as const;
export type Surface = (typeof SURFACES)[number];

const V = 'visible';
const H = 'hidden';
const R = 'restricted';
const W = 'withheld';
const F403 = 'refused:403';
const F404 = 'refused:404';

/** One row: per viewer kind, [public author, private author]. */
type Row = Record<ViewerKind, readonly [publicAuthor: Outcome, privateAuthor: Outcome]>;

export const EXPECTED: Record<Surface, Row> = {
  /**
   * GET /api/sessions?filter=all, both marker sessions (one logged before the
   * relationships changed, one after). decisions.md 'Feed filters': your own
   * sessions plus those of everyone you follow (friends, and public people you
   * sent a request to) that you may see, muted friends left out; strangers'
   * public sessions are not in the home feed. A request the author sent makes
   * the author follow the viewer, not the reverse ('Friends and followers').
   */
  'feed.all': {
    self: [V, V],
    friend: [V, V],
    sent: [V, H],
    received: [H, H],
    stranger: [H, H],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [H, H],
  },
  /** GET /api/sessions?filter=following: the same without your own. */
  'feed.following': {
    self: [H, H],
    friend: [V, V],
    sent: [V, H],
    received: [H, H],
    stranger: [H, H],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [H, H],
  },
  /**
   * GET /api/sessions/{id}: decisions.md 'Visibility' — visible to its author,
   * and to anyone when neither blocked the other and the author is public or a
   * friend; otherwise 404. Mute hides from the muter's feed only (spec 6 via the
   * issue; architecture.md event catalogue: 'hides friendId's sessions in their feed').
   */
  'session.detail': {
    self: [V, V],
    friend: [V, V],
    sent: [V, F404],
    received: [V, F404],
    stranger: [V, F404],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** GET /api/users/{id}/sessions: decisions.md 'Visibility' — private list 403 to non-friends, a block 404. */
  'sessions.list': {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /**
   * GET /api/users/{id}: decisions.md 'Private profiles' — name, username and
   * picture to everyone, bio and details to friends (canViewDetails false
   * otherwise); 'Blocks are mutual invisibility' — 404 whichever side blocked.
   */
  'profile.byId': {
    self: [V, V],
    friend: [V, V],
    sent: [V, R],
    received: [V, R],
    stranger: [V, R],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** GET /api/users/profile/{username}: the same rules as by id. */
  'profile.byUsername': {
    self: [V, V],
    friend: [V, V],
    sent: [V, R],
    received: [V, R],
    stranger: [V, R],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** The profile's email: decisions.md 'E-mail addresses reach friends only (and the user), whatever the privacy switch'. */
  'profile.email': {
    self: [V, V],
    friend: [V, V],
    sent: [W, W],
    received: [W, W],
    stranger: [W, W],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** The profile's totalSessions: a count of sessions is a detail ('bio, stats, sessions ... only to friends'); 0 when withheld. */
  'profile.totalSessions': {
    self: [V, V],
    friend: [V, V],
    sent: [V, W],
    received: [V, W],
    stranger: [V, W],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** GET /api/users/{id}/stats: decisions.md 'Private profiles' — 403 'profile is private' to non-friends; blocks 404. */
  stats: {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /**
   * GET /api/users/search?q=<author's username>: decisions.md 'Search' —
   * yourself never appears; 'Private profiles' appear in search (name only,
   * bio withheld); a block removes each from the other's search.
   */
  search: {
    self: [H, H],
    friend: [V, V],
    sent: [V, R],
    received: [V, R],
    stranger: [V, R],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
  /** GET /api/users/{id}/followers: private lists 403 'only view followers' to non-friends; blocks 404 (decisions.md). */
  followers: {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** GET /api/users/{id}/following: private lists 403 'only view following' to non-friends; blocks 404. */
  following: {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /**
   * The author inside a third party's list (GET /api/users/{hub}/followers, a
   * public user who is friends with the author): decisions.md 'Blocks are
   * mutual invisibility' — absent from every followers/following list the
   * other reads; a private author is listed by name with the bio withheld.
   */
  'hub.followers': {
    self: [V, V],
    friend: [V, V],
    sent: [V, R],
    received: [V, R],
    stranger: [V, R],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
  /** GET /api/albums?userId=: decisions.md 'Albums of others' — public, or private and friends; blocks either way 404; private 403. */
  'albums.list': {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** GET /api/albums/{id}/photos: the same rule as the album list (one check in the media service). */
  'album.photos': {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /**
   * The image files through the URLs this viewer was handed (display and
   * thumbnail): architecture.md 'Files' — album images are served only with a
   * signature the API hands out after checking the viewer may see the album
   * (a block either way → nothing). hidden = no URL reaches this viewer now,
   * and none handed to it before the block still serves an image.
   */
  'photo.file': {
    self: [V, V],
    friend: [V, V],
    sent: [V, H],
    received: [V, H],
    stranger: [V, H],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
  /**
   * The same images without a valid signature (bare key, a signature borrowed
   * from another key, the original with its EXIF): 404 for everyone, the
   * author included — 'Originals ... are never served'.
   */
  'photo.unsigned': {
    self: [F404, F404],
    friend: [F404, F404],
    sent: [F404, F404],
    received: [F404, F404],
    stranger: [F404, F404],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [F404, F404],
  },
};

export function expectedOutcome(surface: Surface, author: AuthorKind, viewer: ViewerKind): Outcome {
  return EXPECTED[surface][viewer][author === 'public' ? 0 : 1];
}
