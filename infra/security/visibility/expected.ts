/**
 * Issue 9, item 12: what each viewer must see of a public and of a private
 * author, surface by surface; issue 19 added the follower counts, mutual
 * friends and an author the services have not heard of yet; issue 23 the
 * challenges (a profile's completed ones, a challenge's participants). Written out cell
 * by cell from the spec (../shared/spec/product-spec.md section 6),
 * docs/decisions.md and the audience policy
 * (services/runtime/src/audience/policy.ts) — never derived from what the
 * services answer.
 *
 * Spec 6: "Private profile: only friends see sessions, photos and profile
 * info. [...] Blocked users cannot see the profile, message or interact."
 * "Followers/following lists of private profiles can be refused by the
 * server; an error message containing 'only view followers', 'only view
 * following' or 'profile is private' [...]".
 */
/**
 * - public, private: the profile switch, every relationship below in place;
 * - unknown: registered a moment ago, their user.registered event not yet
 *   applied by the services (policy.ts: access 'unknown', hidden from everyone
 *   but themselves). The matrix holds the services' people consumers while it
 *   reads these cells (see hold.ts), so they are read in that state, not raced.
 */
export const AUTHOR_KINDS = ['public', 'private', 'unknown'] as const;
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

/** Nobody can befriend, ask, block or mute someone the social graph has not heard of: an unknown author has themselves and strangers. */
export const UNKNOWN_VIEWER_KINDS = ['self', 'stranger'] as const;
export type UnknownViewerKind = (typeof UNKNOWN_VIEWER_KINDS)[number];

/** The viewer kinds each author is read by. */
export const VIEWERS_OF: Record<AuthorKind, readonly ViewerKind[]> = { public: VIEWER_KINDS, private: VIEWER_KINDS, unknown: UNKNOWN_VIEWER_KINDS };

/**
 * Outcomes, as the matrix records them:
 * - visible: the author's content is there (the marker sessions, the album, the details);
 * - hidden: the call succeeds and the author's content is not in it;
 * - restricted: the author is there by name, their details withheld (canViewDetails false, no bio);
 * - withheld: the field is there and empty (email null, totalSessions 0, mutualFriends 0 where the two do share friends);
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
  // Issue 19: the counts and mutual friends.
  'stats.counts',
  'followers.counts',
  'following.counts',
  'hub.counts',
  'profile.mutualFriends',
  'search.mutualFriends',
  // Issue 23: the challenges service's two windows on a person.
  'challenges.completed',
  'challenge.participants',
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
  /**
   * The profile's email: the person's own (decisions.md 'Issue 40, A2'): friends see it only when the
   * author's "Show my e-mail to friends" is on, which the world leaves off (the default); services/social-graph's
   * friendships.test.ts has it on.
   */
  'profile.email': {
    self: [V, V],
    friend: [W, W],
    sent: [W, W],
    received: [W, W],
    stranger: [W, W],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [W, W],
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
  /**
   * The author's follower and following counts (followersCount and
   * followingCount) in GET /api/users/{id}/stats, the profile's Followers and
   * Following tiles: decisions.md 'Private profiles' — stats only to friends
   * (403 'profile is private', which must not carry the counts); blocks 404.
   * visible = both counts match the author's lists.
   */
  'stats.counts': {
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
   * The same counts in the header of the author's followers list (the
   * /users/{id}/followers screen's tabs 'Followers (n)', 'Following (n)'): a
   * private author's counts follow the rule of their lists — 403 'only view
   * followers' to non-friends, with no count in the refusal; blocks 404.
   */
  'followers.counts': {
    self: [V, V],
    friend: [V, V],
    sent: [V, F403],
    received: [V, F403],
    stranger: [V, F403],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** The header of the author's following list: 403 'only view following' to non-friends of a private author; blocks 404. */
  'following.counts': {
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
   * The author counted in a third party's list headers (the hub's followers
   * and following lists, whose header counts the hub's followers and
   * following): visible = the author is in the list and counted; hidden = the
   * author is neither listed nor counted. decisions.md 'Blocks are mutual
   * invisibility' — absent from every followers/following list the other
   * reads, and the policy: 'nothing of one shows to the other, anywhere'. A
   * header counting someone the list hides from this viewer tells them a
   * hidden person is there, that is, that a block stands between them.
   */
  'hub.counts': {
    self: [V, V],
    friend: [V, V],
    sent: [V, V],
    received: [V, V],
    stranger: [V, V],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
  /**
   * mutualFriends on the author's profile (by id and by username, which must
   * agree), for viewers who do share a friend with the author (every viewer
   * not in a block is a friend of the hub, as both authors are). It is a window on the
   * author's friend list: decisions.md 'Private profiles' — the
   * followers/following lists (and stats) only to friends, and the policy
   * puts 'a private friend of a friend' at access 'private', seeing none of
   * the author's things. So withheld (0) to non-friends of a private author,
   * like totalSessions; the true number to everyone who may see the lists.
   */
  'profile.mutualFriends': {
    self: [V, V],
    friend: [V, V],
    sent: [V, W],
    received: [V, W],
    stranger: [V, W],
    blockedByAuthor: [F404, F404],
    blocker: [F404, F404],
    muted: [V, V],
  },
  /** mutualFriends on the author's search result: the same rule; yourself never appears, a block removes each from the other's search. */
  'search.mutualFriends': {
    self: [H, H],
    friend: [V, V],
    sent: [V, W],
    received: [V, W],
    stranger: [V, W],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
  /**
   * GET /api/users/{id}/challenges, the profile's row of completed challenges
   * (every author completed today's 'Take it slow'): decisions.md 'Challenges
   * (issue 23)', Privacy — it follows the profile tabs' rule, the same as the
   * sessions list: private profiles to friends only (403 'This profile is
   * private'), blocked either way 404. A mute hides from the feed only.
   */
  'challenges.completed': {
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
   * The author among the participants of that challenge's page
   * (GET /api/challenges/{id}), and counted in its friendCount exactly when
   * listed: decisions.md 'Challenges (issue 23)', Privacy — the page lists
   * only the viewer's friends in it, not strangers who happen to be in the
   * same challenge (so not the author to a non-friend, public or private);
   * a block ends a friendship, so neither side of one. A muted friend is
   * still a friend. Self: hidden — the list is the viewer's friends
   * (audienceSql.friends over the follows table) and nobody is their own
   * friend; the author's own progress is the card, not a participant row.
   */
  'challenge.participants': {
    self: [H, H],
    friend: [V, V],
    sent: [H, H],
    received: [H, H],
    stranger: [H, H],
    blockedByAuthor: [H, H],
    blocker: [H, H],
    muted: [V, V],
  },
};

/**
 * The unknown author: registered a moment ago, public (the default), with two
 * sessions and an album photo, read while no service has applied their
 * user.registered event. Policy: access 'unknown' — hidden from everyone but
 * themselves, and nowhere an error but the refusal a stranger gets for someone
 * who does not exist: 404 on profile, stats, lists, sessions list, albums and
 * completed challenges (sessions, media and challenges say 'User not found' /
 * 'Album not found'), absent from search, feeds and challenge pages.
 *
 * Themselves: sessions and media decide 'self' before anything else, so the
 * author sees their own sessions and photos at once. The social graph keeps
 * profiles from the registration event itself: until it arrives there is no
 * profile, stats or list of theirs to show, to them either (404, as for anyone
 * not there; /api/me, from auth, is theirs meanwhile) — nothing of theirs is
 * shown wrongly, which is all the policy asks of the 'unknown' state.
 */
export const EXPECTED_UNKNOWN: Record<Surface, Record<UnknownViewerKind, Outcome>> = {
  'feed.all': { self: V, stranger: H },
  'feed.following': { self: H, stranger: H },
  'session.detail': { self: V, stranger: F404 },
  'sessions.list': { self: V, stranger: F404 },
  'profile.byId': { self: F404, stranger: F404 },
  'profile.byUsername': { self: F404, stranger: F404 },
  'profile.email': { self: F404, stranger: F404 },
  'profile.totalSessions': { self: F404, stranger: F404 },
  stats: { self: F404, stranger: F404 },
  search: { self: H, stranger: H },
  followers: { self: F404, stranger: F404 },
  following: { self: F404, stranger: F404 },
  'hub.followers': { self: H, stranger: H },
  'albums.list': { self: V, stranger: F404 },
  'album.photos': { self: V, stranger: F404 },
  'photo.file': { self: V, stranger: H },
  'photo.unsigned': { self: F404, stranger: F404 },
  'stats.counts': { self: F404, stranger: F404 },
  'followers.counts': { self: F404, stranger: F404 },
  'following.counts': { self: F404, stranger: F404 },
  'hub.counts': { self: H, stranger: H },
  'profile.mutualFriends': { self: F404, stranger: F404 },
  'search.mutualFriends': { self: H, stranger: H },
  // The newcomer joins and completes 'Take it slow' while held: joining asks challenges nothing of the audience tables,
  // and the session's fact arrives on SESSIONS, which the hold leaves alone. Their own row is theirs at once ('self' is
  // decided before 'unknown', as on the sessions list); to a stranger they do not exist yet (404 'User not found').
  'challenges.completed': { self: V, stranger: F404 },
  // Nobody is a friend of someone no service has heard of, nor their own friend: on nobody's participants list.
  'challenge.participants': { self: H, stranger: H },
};

export function expectedOutcome(surface: Surface, author: AuthorKind, viewer: ViewerKind): Outcome {
  if (author === 'unknown') {
    if (!(UNKNOWN_VIEWER_KINDS as readonly ViewerKind[]).includes(viewer)) throw new Error(`no ${viewer} viewer of an unknown author`);
    return EXPECTED_UNKNOWN[surface][viewer as UnknownViewerKind];
  }
  return EXPECTED[surface][viewer][author === 'public' ? 0 : 1];
}
