import type { FollowList, FriendshipStatus, OtherUser, UserStats } from '@hoptrack/proto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessions, expectError, noContent, ok, sortedIds, tag } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * Issue 3's privacy matrix: (public, private) target × the viewer's relation to
 * it × every read surface. Each row is written out by hand (not computed from
 * the rules under test), and one test is generated per cell.
 */
type Privacy = 'public' | 'private';
type Relation = 'self' | 'friend' | 'sent' | 'pending' | 'stranger' | 'blocked by viewer' | 'blocked by target';

/** 404 = hidden as if it did not exist; otherwise what a 200 must show. */
type ProfileCell = 404 | { canViewDetails: boolean; email: boolean; friendshipStatus: FriendshipStatus; friendshipId: boolean };
/** For lists: 200 and whether the viewer is in the list, or the refusal. */
type ListCell = 403 | 404 | { viewerListed: boolean };
type SearchCell = 'absent' | { canViewDetails: boolean; friendshipStatus: FriendshipStatus };

interface Row {
  privacy: Privacy;
  relation: Relation;
  profile: ProfileCell;
  stats: 200 | 403 | 404;
  followers: ListCell;
  following: ListCell;
  search: SearchCell;
}

// A friend sees the e-mail address only when its owner's "Show my e-mail to friends" is on (issue 40; off here, friendships.test.ts has it on).
const ROWS: Row[] = [
  // ---- public target ----
  { privacy: 'public', relation: 'self', profile: { canViewDetails: true, email: true, friendshipStatus: 'none', friendshipId: false }, stats: 200, followers: { viewerListed: false }, following: { viewerListed: false }, search: 'absent' },
  { privacy: 'public', relation: 'friend', profile: { canViewDetails: true, email: false, friendshipStatus: 'accepted', friendshipId: true }, stats: 200, followers: { viewerListed: true }, following: { viewerListed: true }, search: { canViewDetails: true, friendshipStatus: 'accepted' } },
  { privacy: 'public', relation: 'sent', profile: { canViewDetails: true, email: false, friendshipStatus: 'sent', friendshipId: true }, stats: 200, followers: { viewerListed: true }, following: { viewerListed: false }, search: { canViewDetails: true, friendshipStatus: 'sent' } },
  { privacy: 'public', relation: 'pending', profile: { canViewDetails: true, email: false, friendshipStatus: 'pending', friendshipId: true }, stats: 200, followers: { viewerListed: false }, following: { viewerListed: true }, search: { canViewDetails: true, friendshipStatus: 'pending' } },
  { privacy: 'public', relation: 'stranger', profile: { canViewDetails: true, email: false, friendshipStatus: 'none', friendshipId: false }, stats: 200, followers: { viewerListed: false }, following: { viewerListed: false }, search: { canViewDetails: true, friendshipStatus: 'none' } },
  { privacy: 'public', relation: 'blocked by viewer', profile: 404, stats: 404, followers: 404, following: 404, search: 'absent' },
  { privacy: 'public', relation: 'blocked by target', profile: 404, stats: 404, followers: 404, following: 404, search: 'absent' },
  // ---- private target: details for self and friends only; neither side of a pending request is a friend ----
  { privacy: 'private', relation: 'self', profile: { canViewDetails: true, email: true, friendshipStatus: 'none', friendshipId: false }, stats: 200, followers: { viewerListed: false }, following: { viewerListed: false }, search: 'absent' },
  { privacy: 'private', relation: 'friend', profile: { canViewDetails: true, email: false, friendshipStatus: 'accepted', friendshipId: true }, stats: 200, followers: { viewerListed: true }, following: { viewerListed: true }, search: { canViewDetails: true, friendshipStatus: 'accepted' } },
  { privacy: 'private', relation: 'sent', profile: { canViewDetails: false, email: false, friendshipStatus: 'sent', friendshipId: true }, stats: 403, followers: 403, following: 403, search: { canViewDetails: false, friendshipStatus: 'sent' } },
  { privacy: 'private', relation: 'pending', profile: { canViewDetails: false, email: false, friendshipStatus: 'pending', friendshipId: true }, stats: 403, followers: 403, following: 403, search: { canViewDetails: false, friendshipStatus: 'pending' } },
  { privacy: 'private', relation: 'stranger', profile: { canViewDetails: false, email: false, friendshipStatus: 'none', friendshipId: false }, stats: 403, followers: 403, following: 403, search: { canViewDetails: false, friendshipStatus: 'none' } },
  { privacy: 'private', relation: 'blocked by viewer', profile: 404, stats: 404, followers: 404, following: 404, search: 'absent' },
  { privacy: 'private', relation: 'blocked by target', profile: 404, stats: 404, followers: 404, following: 404, search: 'absent' },
];

const SURFACES = ['profile', 'profile by username', 'stats', 'followers', 'following', 'search'] as const;
type Surface = (typeof SURFACES)[number];

interface Pair {
  viewer: TestUser;
  target: TestUser;
}

let social: TestSocial;
/** Each target is friends with `bystander`, so its lists are never empty. */
let bystander: TestUser;
const pairs = new Map<string, Pair>();
const keyOf = (row: Pick<Row, 'privacy' | 'relation'>) => `${row.privacy}/${row.relation}`;

async function arrange(privacy: Privacy, relation: Relation): Promise<Pair> {
  const [target, viewer] = await Promise.all([social.user({ private: privacy === 'private', username: tag('mx') }), social.user()]);
  await social.befriend(bystander, target);
  await addSessions(social, target, [{ minutes: 90 }]);
  if (relation === 'self') return { viewer: target, target };
  const request = (from: TestUser, to: TestUser) => social.as(from).post('/api/friendships', { friendId: to.id });
  const block = async (by: TestUser, whom: TestUser) => noContent(await social.as(by).post(`/api/friends/${whom.id}/block`, {}));
  switch (relation) {
    case 'friend':
      await social.befriend(viewer, target);
      break;
    case 'sent':
      ok(await request(viewer, target), 201);
      break;
    case 'pending':
      ok(await request(target, viewer), 201);
      break;
    case 'blocked by viewer':
      // A friendship first: the block must hide more than a stranger.
      await social.befriend(viewer, target);
      await block(viewer, target);
      break;
    case 'blocked by target':
      ok(await request(viewer, target), 201);
      await block(target, viewer);
      break;
    case 'stranger':
      break;
  }
  return { viewer, target };
}

beforeAll(async () => {
  social = await startTestSocial();
  bystander = await social.user();
  const arranged = await Promise.all(ROWS.map((row) => arrange(row.privacy, row.relation)));
  ROWS.forEach((row, i) => pairs.set(keyOf(row), arranged[i] as Pair));
});
afterAll(() => social.close());

const cells = ROWS.flatMap((row) => SURFACES.map((surface) => ({ ...row, surface, name: `${row.privacy} × ${row.relation} × ${surface}` })));

describe('privacy matrix', () => {
  it('covers every (privacy, relation, surface) cell', () => {
    expect(cells).toHaveLength(2 * 7 * SURFACES.length);
    expect(new Set(cells.map((c) => c.name)).size).toBe(cells.length);
  });

  it.each(cells)('$name', async (cell) => {
    const pair = pairs.get(keyOf(cell));
    if (!pair) throw new Error(`no arrangement for ${keyOf(cell)}`);
    await check(cell.surface, cell, pair);
  });
});

async function check(surface: Surface, row: Row, { viewer, target }: Pair): Promise<void> {
  const as = social.as(viewer);
  switch (surface) {
    case 'profile':
      return checkProfile(row.profile, await as.get(`/api/users/${target.id}`), target);
    case 'profile by username':
      // Usernames are matched case-insensitively.
      return checkProfile(row.profile, await as.get(`/api/users/profile/${target.username.toUpperCase()}`), target);
    case 'stats': {
      const res = await as.get(`/api/users/${target.id}/stats`);
      if (row.stats === 404) return expectError(res, 404, { message: 'User not found' });
      if (row.stats === 403) return expectError(res, 403, { message: 'This profile is private' });
      // bystander + (viewer, when the viewer asked or is a friend) follow the target
      const stats = ok<UserStats>(res);
      expect(stats).toEqual({
        totalSessions: 1,
        totalHours: 1.5,
        followersCount: listed(row.followers) ? 2 : 1,
        followingCount: listed(row.following) ? 2 : 1,
      });
      return;
    }
    case 'followers':
    case 'following': {
      const cell = row[surface];
      const res = await as.get(`/api/users/${target.id}/${surface}`);
      if (cell === 404) return expectError(res, 404, { message: 'User not found' });
      if (cell === 403) return expectError(res, 403, { message: surface === 'followers' ? /only view followers/ : /only view following/ });
      const list = ok<FollowList>(res);
      const expected = cell.viewerListed ? [bystander, viewer] : [bystander];
      expect(sortedIds(list.users)).toEqual(sortedIds(expected));
      expect(list.total).toBe(expected.length);
      expect(list[surface === 'followers' ? 'followersCount' : 'followingCount']).toBe(expected.length);
      return;
    }
    case 'search': {
      const res = await as.get(`/api/users/search?q=${encodeURIComponent(target.username)}`);
      const found = ok<OtherUser[]>(res).filter((u) => u.id === target.id);
      if (row.search === 'absent') return void expect(found).toEqual([]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        canViewDetails: row.search.canViewDetails,
        friendshipStatus: row.search.friendshipStatus,
        bio: row.search.canViewDetails ? target.snapshot.bio : null,
        totalSessions: row.search.canViewDetails ? 1 : 0,
      });
      return;
    }
  }
}

function listed(cell: ListCell): boolean {
  return typeof cell === 'object' && cell.viewerListed;
}

function checkProfile(cell: ProfileCell, res: LightMyRequestResponse, target: TestUser): void {
  if (cell === 404) return expectError(res, 404, { message: 'User not found' });
  const profile = ok<OtherUser>(res);
  expect(profile).toMatchObject({
    id: target.id,
    username: target.username,
    isProfilePrivate: target.snapshot.isProfilePrivate,
    canViewDetails: cell.canViewDetails,
    // A hidden profile withholds bio and session numbers.
    bio: cell.canViewDetails ? target.snapshot.bio : null,
    totalSessions: cell.canViewDetails ? 1 : 0,
    // E-mail reaches self and friends only, whatever the privacy setting.
    email: cell.email ? target.email : null,
    friendshipStatus: cell.friendshipStatus,
  });
  if (cell.friendshipId) expect(profile.friendshipId).toEqual(expect.any(String));
  else expect(profile.friendshipId).toBeNull();
}
