import type { Album, ChallengeDetail, CompletedChallenge, FeedSession, FollowList, OtherUser, Photo, PublicSession, UserStats } from '@hoptrack/proto';
import type { Account, Answer, Api } from './api';
import { expectedOutcome, type AuthorKind, type Surface, type ViewerKind } from './expected';

/** What an author put on the stack, and the markers the matrix looks for in every answer. */
export interface AuthorWorld {
  kind: AuthorKind;
  account: Account;
  bio: string;
  /** Logged before the relationships changed (block, mute) and after the first ones formed. */
  early: { id: string; title: string };
  /** Logged after every relationship settled, with a session photo. */
  late: { id: string; title: string; photoKey: string };
  album: { id: string; name: string };
  photo: {
    id: string;
    displayKey: string;
    thumbKey: string;
    originalKey: string;
    selfThumbUrl: string;
    /** The URLs each viewer was handed before the blocks and mutes (while the blocked ones could still see the album). */
    handedEarlier: Partial<Record<ViewerKind, string[]>>;
  };
  /** Who must be in the author's lists (decisions.md: followers = friends + pending requesters; following = friends + those asked). */
  followerIds: string[];
  followingIds: string[];
  /** How many friends each viewer shares with the author (the true mutualFriends; for the author: all their friends). */
  sharedFriends: Partial<Record<ViewerKind, number>>;
  /** Today's 'Take it slow' (UTC), which the author joined before logging and completed. */
  challengeId: string;
}

export interface Pair {
  author: AuthorWorld;
  viewerKind: ViewerKind;
  viewer: Account;
}

export interface World {
  api: Api;
  /** A public user who is friends with both authors: its followers list is the third-party list. */
  hub: Account;
}

/** One probe's result: the outcome and every body it read (for the leak scan). */
export interface Reading {
  outcome: string;
  texts: string[];
}

const messageOf = (answer: Answer) => ((answer.body as { message?: unknown } | null)?.message ?? '') as string;

/**
 * 403 / 404 as outcomes (403 must carry the message the web turns into
 * 'Access Restricted' when `message` is given); null for 200; anything else verbatim.
 */
function refusal(answer: Answer, message?: RegExp): string | null {
  if (answer.status === 200) return null;
  if (answer.status === 403 && message && !message.test(messageOf(answer))) return `refused:403 (message "${messageOf(answer)}")`;
  if (answer.status === 403 || answer.status === 404) return `refused:${answer.status}`;
  return `status:${answer.status}`;
}

/** Both marker sessions, one of them, or neither. */
function sessionsIn(ids: string[], world: AuthorWorld): string {
  const early = ids.includes(world.early.id);
  const late = ids.includes(world.late.id);
  if (early && late) return 'visible';
  if (!early && !late) return 'hidden';
  return `partial(${early ? 'early' : 'late'} only)`;
}

/** A person inside a list or search: absent, listed with details, or listed with the details withheld. */
function personIn(users: Array<{ id: string; bio: string | null; canViewDetails?: boolean; totalSessions?: number }>, world: AuthorWorld): string {
  const found = users.find((u) => u.id === world.account.id);
  if (!found) return 'hidden';
  const bioShown = found.bio === world.bio;
  const outcome = bioShown ? 'visible' : 'restricted';
  if (found.canViewDetails !== undefined && found.canViewDetails !== bioShown) return `inconsistent(canViewDetails=${found.canViewDetails}, bio=${bioShown})`;
  // A withheld profile withholds its count too (both marker sessions otherwise).
  if (found.totalSessions !== undefined && found.totalSessions !== (bioShown ? 2 : 0)) return `${outcome}, totalSessions=${found.totalSessions}`;
  return outcome;
}

/** The same member ids, whatever the order. */
function sameMembers(actual: string[], wanted: string[]): boolean {
  return actual.length === wanted.length && [...actual].sort().join() === [...wanted].sort().join();
}

type Probe = (world: World, pair: Pair) => Promise<Reading>;

async function feed(world: World, pair: Pair, filter: 'all' | 'following'): Promise<Reading> {
  const answer = await world.api.call(pair.viewer.token, 'GET', `/api/sessions?filter=${filter}&limit=50`);
  const refused = refusal(answer);
  if (refused) return { outcome: refused, texts: [answer.text] };
  return { outcome: sessionsIn((answer.body as FeedSession[]).map((s) => s.id), pair.author), texts: [answer.text] };
}

async function profile(world: World, pair: Pair, path: string, field: 'details' | 'email' | 'totalSessions'): Promise<Reading> {
  const answer = await world.api.call(pair.viewer.token, 'GET', path);
  const refused = refusal(answer);
  if (refused) return { outcome: refused, texts: [answer.text] };
  const user = answer.body as OtherUser;
  if (user.id !== pair.author.account.id) return { outcome: `wrong user ${user.id}`, texts: [answer.text] };
  switch (field) {
    case 'details':
      return { outcome: personIn([user], pair.author), texts: [answer.text] };
    case 'email':
      return { outcome: user.email === pair.author.account.email ? 'visible' : user.email === null ? 'withheld' : `email=${user.email}`, texts: [answer.text] };
    case 'totalSessions':
      return { outcome: user.totalSessions === 2 ? 'visible' : user.totalSessions === 0 ? 'withheld' : `totalSessions=${user.totalSessions}`, texts: [answer.text] };
  }
}

async function followList(world: World, pair: Pair, kind: 'followers' | 'following'): Promise<Reading> {
  const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/${kind}?limit=50`);
  const refused = refusal(answer, kind === 'followers' ? /only view followers/ : /only view following/);
  if (refused) return { outcome: refused, texts: [answer.text] };
  const list = answer.body as FollowList;
  const wanted = kind === 'followers' ? pair.author.followerIds : pair.author.followingIds;
  const ids = list.users.map((u) => u.id);
  return { outcome: sameMembers(ids, wanted) && list.total === wanted.length ? 'visible' : `visible(wrong members: ${ids.length} of ${wanted.length})`, texts: [answer.text] };
}

/** A refusal that carries follower or following counts anyway is no refusal of the counts. */
function refusedWithoutCounts(answer: Answer, message?: RegExp): string | null {
  const refused = refusal(answer, message);
  if (!refused) return null;
  const body = answer.body as Record<string, unknown> | null;
  const carried = ['followersCount', 'followingCount'].filter((field) => body !== null && typeof body === 'object' && field in body);
  return carried.length ? `${refused} +counts(${carried.join(', ')})` : refused;
}

/** The author's followersCount and followingCount in one answer: both equal to the author's lists, or what they were. */
function countsOf(body: { followersCount?: unknown; followingCount?: unknown }, world: AuthorWorld): string {
  if (body.followersCount === world.followerIds.length && body.followingCount === world.followingIds.length) return 'visible';
  return `followersCount=${String(body.followersCount)}, followingCount=${String(body.followingCount)} (lists ${world.followerIds.length}/${world.followingIds.length})`;
}

/** The follower and following counts in the header of one of the author's lists. */
async function listCounts(world: World, pair: Pair, kind: 'followers' | 'following'): Promise<Reading> {
  const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/${kind}?limit=50`);
  const refused = refusedWithoutCounts(answer, kind === 'followers' ? /only view followers/ : /only view following/);
  if (refused) return { outcome: refused, texts: [answer.text] };
  return { outcome: countsOf(answer.body as FollowList, pair.author), texts: [answer.text] };
}

/**
 * mutualFriends as this viewer reads it: the true number of friends the two
 * share (visible), 0 although they share some (withheld), or what it was.
 */
function mutualIn(user: OtherUser, pair: Pair): string {
  const shared = pair.author.sharedFriends[pair.viewerKind] ?? 0;
  if (shared > 0 && user.mutualFriends === shared) return 'visible';
  if (shared > 0 && user.mutualFriends === 0) return 'withheld';
  return `mutualFriends=${user.mutualFriends} (they share ${shared})`;
}

/**
 * The author in one of the hub's lists, and in its header: listed and counted
 * (visible), neither (hidden), or the header counting people the list does
 * not show this viewer (the page holds the whole list: limit 50).
 */
async function hubCount(world: World, pair: Pair, kind: 'followers' | 'following'): Promise<{ outcome: string; text: string }> {
  const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${world.hub.id}/${kind}?limit=50`);
  const refused = refusal(answer);
  if (refused) return { outcome: refused, text: answer.text };
  const list = answer.body as FollowList;
  const header = kind === 'followers' ? list.followersCount : list.followingCount;
  const listed = list.users.some((u) => u.id === pair.author.account.id);
  if (list.users.length !== list.total) return { outcome: `page of ${list.users.length} of ${list.total}`, text: answer.text };
  if (header === list.total) return { outcome: listed ? 'visible' : 'hidden', text: answer.text };
  return { outcome: `${listed ? 'listed' : 'not listed'}, but the header counts ${header} where the list shows ${list.total}`, text: answer.text };
}

/** The viewer's own reading of the author's album photos (null when refused). */
async function albumPhotos(world: World, pair: Pair): Promise<{ answer: Answer; photos: Photo[] | null }> {
  const answer = await world.api.call(pair.viewer.token, 'GET', `/api/albums/${pair.author.album.id}/photos`);
  return { answer, photos: answer.status === 200 ? (answer.body as Photo[]) : null };
}

/** Every album image URL the API hands `viewer` for the author's album now: both sizes of the photo and the cover. */
export async function urlsHandedTo(api: Api, viewer: Account, authorId: string, albumId: string): Promise<{ urls: string[]; texts: string[] }> {
  const [photos, list] = await Promise.all([
    api.call(viewer.token, 'GET', `/api/albums/${albumId}/photos`),
    api.call(viewer.token, 'GET', `/api/albums?userId=${authorId}`),
  ]);
  const photo = photos.status === 200 ? (photos.body as Photo[])[0] : undefined;
  const cover = list.status === 200 ? (list.body as Album[]).find((a) => a.id === albumId)?.coverPhoto : null;
  return { urls: [photo?.url, photo?.thumbnailUrl, cover].filter((u): u is string => typeof u === 'string'), texts: [photos.text, list.text] };
}

export const PROBES: Record<Surface, Probe> = {
  'feed.all': (world, pair) => feed(world, pair, 'all'),
  'feed.following': (world, pair) => feed(world, pair, 'following'),

  'session.detail': async (world, pair) => {
    const answers = await Promise.all([pair.author.early.id, pair.author.late.id].map((id) => world.api.call(pair.viewer.token, 'GET', `/api/sessions/${id}`)));
    const outcomes = answers.map((a) => refusal(a) ?? ((a.body as FeedSession).userId === pair.author.account.id ? 'visible' : 'wrong session'));
    return { outcome: outcomes[0] === outcomes[1] ? (outcomes[0] as string) : `early ${outcomes[0]}, late ${outcomes[1]}`, texts: answers.map((a) => a.text) };
  },

  'sessions.list': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/sessions?limit=50`);
    const refused = refusal(answer, /profile is private/);
    if (refused) return { outcome: refused, texts: [answer.text] };
    return { outcome: sessionsIn((answer.body as PublicSession[]).map((s) => s.id), pair.author), texts: [answer.text] };
  },

  'profile.byId': (world, pair) => profile(world, pair, `/api/users/${pair.author.account.id}`, 'details'),
  'profile.byUsername': (world, pair) => profile(world, pair, `/api/users/profile/${encodeURIComponent(pair.author.account.username)}`, 'details'),
  'profile.email': (world, pair) => profile(world, pair, `/api/users/${pair.author.account.id}`, 'email'),
  'profile.totalSessions': (world, pair) => profile(world, pair, `/api/users/${pair.author.account.id}`, 'totalSessions'),

  stats: async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/stats`);
    const refused = refusal(answer, /profile is private/);
    if (refused) return { outcome: refused, texts: [answer.text] };
    const stats = answer.body as UserStats;
    return { outcome: stats.totalSessions === 2 ? 'visible' : `totalSessions=${stats.totalSessions}`, texts: [answer.text] };
  },

  search: async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/search?q=${encodeURIComponent(pair.author.account.username)}`);
    const refused = refusal(answer);
    if (refused) return { outcome: refused, texts: [answer.text] };
    return { outcome: personIn(answer.body as OtherUser[], pair.author), texts: [answer.text] };
  },

  followers: (world, pair) => followList(world, pair, 'followers'),
  following: (world, pair) => followList(world, pair, 'following'),

  'hub.followers': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${world.hub.id}/followers?limit=50`);
    const refused = refusal(answer);
    if (refused) return { outcome: refused, texts: [answer.text] };
    return { outcome: personIn((answer.body as FollowList).users, pair.author), texts: [answer.text] };
  },

  'albums.list': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/albums?userId=${pair.author.account.id}`);
    const refused = refusal(answer, /profile is private/);
    if (refused) return { outcome: refused, texts: [answer.text] };
    const album = (answer.body as Album[]).find((a) => a.id === pair.author.album.id);
    if (!album) return { outcome: 'hidden', texts: [answer.text] };
    return { outcome: album.photoCount === 1 && album.coverPhoto ? 'visible' : `album without its photo (count ${album.photoCount})`, texts: [answer.text] };
  },

  'album.photos': async (world, pair) => {
    const { answer, photos } = await albumPhotos(world, pair);
    const refused = refusal(answer, /profile is private/);
    if (refused || !photos) return { outcome: refused ?? 'no photos', texts: [answer.text] };
    const photo = photos.find((p) => p.id === pair.author.photo.id);
    return { outcome: photo?.status === 'ready' && photo.url && photo.thumbnailUrl ? 'visible' : `photo ${photo?.status ?? 'missing'}`, texts: [answer.text] };
  },

  'photo.file': async (world, pair) => {
    const now = await urlsHandedTo(world.api, pair.viewer, pair.author.account.id, pair.author.album.id);
    if (now.urls.length === 0) {
      // Nothing handed out now; and what was handed out before a block must stop working (architecture.md: a block either way → nothing).
      const earlier = pair.author.photo.handedEarlier[pair.viewerKind] ?? [];
      const served = (await Promise.all(earlier.map((url) => world.api.fetchFile(url)))).filter((f) => f.status === 200).length;
      return { outcome: served ? `hidden, but ${served} of ${earlier.length} URLs handed earlier still served` : 'hidden', texts: now.texts };
    }
    const files = await Promise.all(now.urls.map((url) => world.api.fetchFile(url)));
    const served = files.every((f) => f.status === 200 && f.contentType === 'image/webp' && f.bytes > 0);
    return { outcome: served && now.urls.length === 3 ? 'visible' : `urls ${now.urls.length}, served ${files.map((f) => f.status).join('/')}`, texts: now.texts };
  },

  'photo.unsigned': async (world, pair) => {
    const { photo } = pair.author;
    const borrowed = new URL(photo.selfThumbUrl, world.api.baseUrl).search; // a valid signature, made for another key
    const attempts: Record<string, string> = {
      display: `/api/media/files/${photo.displayKey}`,
      thumbnail: `/api/media/files/${photo.thumbKey}`,
      original: `/api/media/files/${photo.originalKey}`,
      'display with the thumbnail signature': `/api/media/files/${photo.displayKey}${borrowed}`,
      'original with the thumbnail signature': `/api/media/files/${photo.originalKey}${borrowed}`,
    };
    const served: string[] = [];
    const texts: string[] = [];
    for (const [name, url] of Object.entries(attempts)) {
      const answer = await world.api.call(pair.viewer.token, 'GET', url);
      if (answer.status !== 404) served.push(`${name}: ${answer.status}`);
      else texts.push(answer.text);
    }
    return { outcome: served.length === 0 ? 'refused:404' : `served(${served.join('; ')})`, texts };
  },

  'stats.counts': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/stats`);
    const refused = refusedWithoutCounts(answer, /profile is private/);
    if (refused) return { outcome: refused, texts: [answer.text] };
    return { outcome: countsOf(answer.body as UserStats, pair.author), texts: [answer.text] };
  },
  'followers.counts': (world, pair) => listCounts(world, pair, 'followers'),
  'following.counts': (world, pair) => listCounts(world, pair, 'following'),

  'hub.counts': async (world, pair) => {
    const [followers, following] = await Promise.all([hubCount(world, pair, 'followers'), hubCount(world, pair, 'following')]);
    const outcome = followers.outcome === following.outcome ? followers.outcome : `followers: ${followers.outcome}; following: ${following.outcome}`;
    return { outcome, texts: [followers.text, following.text] };
  },

  'profile.mutualFriends': async (world, pair) => {
    const paths = [`/api/users/${pair.author.account.id}`, `/api/users/profile/${encodeURIComponent(pair.author.account.username)}`];
    const answers = await Promise.all(paths.map((path) => world.api.call(pair.viewer.token, 'GET', path)));
    const outcomes = answers.map((answer) => {
      const refused = refusal(answer);
      if (refused) return refused;
      const user = answer.body as OtherUser;
      return user.id === pair.author.account.id ? mutualIn(user, pair) : `wrong user ${user.id}`;
    });
    return { outcome: outcomes[0] === outcomes[1] ? (outcomes[0] as string) : `by id ${outcomes[0]}, by username ${outcomes[1]}`, texts: answers.map((a) => a.text) };
  },

  'search.mutualFriends': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/search?q=${encodeURIComponent(pair.author.account.username)}`);
    const refused = refusal(answer);
    if (refused) return { outcome: refused, texts: [answer.text] };
    const found = (answer.body as OtherUser[]).find((u) => u.id === pair.author.account.id);
    return { outcome: found ? mutualIn(found, pair) : 'hidden', texts: [answer.text] };
  },

  'challenges.completed': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/users/${pair.author.account.id}/challenges?limit=50`);
    const refused = refusal(answer, /profile is private/);
    if (refused) return { outcome: refused, texts: [answer.text] };
    return { outcome: (answer.body as CompletedChallenge[]).some((c) => c.id === pair.author.challengeId) ? 'visible' : 'hidden', texts: [answer.text] };
  },

  'challenge.participants': async (world, pair) => {
    const answer = await world.api.call(pair.viewer.token, 'GET', `/api/challenges/${pair.author.challengeId}`);
    const refused = refusal(answer);
    if (refused) return { outcome: refused, texts: [answer.text] };
    const page = answer.body as ChallengeDetail;
    const listed = page.participants.some((p) => p.person.id === pair.author.account.id);
    // The card's friendCount counts the people the page lists (decisions.md, 'Challenges'): whatever other friends of
    // the viewer are in it, the author adds one to it exactly when listed. A count with the author in it and the list
    // without would tell the viewer a hidden person is there (as the hub's list headers once did).
    const others = page.participants.filter((p) => p.person.id !== pair.author.account.id).length;
    const authorCounted = page.friendCount - others;
    const outcome = listed ? 'visible' : 'hidden';
    if (authorCounted !== (listed ? 1 : 0)) {
      return { outcome: `inconsistent(${outcome}, friendCount=${page.friendCount} with ${others} other friends listed)`, texts: [answer.text] };
    }
    return { outcome, texts: [answer.text] };
  },
};

/** The author's markers, by what a viewer must be allowed to see before any answer may carry them. */
function secretsOf(world: AuthorWorld): Record<'sessions' | 'photos' | 'details' | 'email', Record<string, string>> {
  return {
    sessions: {
      'early session title': world.early.title,
      'early session id': world.early.id,
      'late session title': world.late.title,
      'late session id': world.late.id,
      'session photo': world.late.photoKey,
    },
    photos: { 'album id': world.album.id, 'album name': world.album.name, 'photo id': world.photo.id },
    details: { bio: world.bio },
    email: { email: world.account.email },
  };
}

/**
 * The leak scan, over every answer the viewer read on every surface: a viewer
 * the table does not let see the author's sessions (session.detail), photos
 * (albums.list), details (profile.byId) or e-mail (profile.email) must not find
 * their markers anywhere — a session title in a 403 body, a bio in a
 * restricted card, an album id in a search result...
 */
export function leaksIn(reading: Reading, pair: Pair): string[] {
  const secrets = secretsOf(pair.author);
  const may = (surface: Surface) => expectedOutcome(surface, pair.author.kind, pair.viewerKind) === 'visible';
  const scanned = {
    ...(may('session.detail') ? {} : secrets.sessions),
    ...(may('albums.list') ? {} : secrets.photos),
    ...(may('profile.byId') ? {} : secrets.details),
    ...(may('profile.email') ? {} : secrets.email),
  };
  const text = reading.texts.join('\n');
  return Object.entries(scanned)
    .filter(([, marker]) => marker && text.includes(marker))
    .map(([name]) => name);
}
