import type { FollowList, Friend, MyStats, OtherUser, UserStats } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessions, expectError, idsOf, noContent, ok, tag } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

const request = async (from: TestUser, to: TestUser) => ok(await social.as(from).post('/api/friendships', { friendId: to.id }), 201);

/**
 * `star` with two friends (Amber, Brook), one incoming request (from Cedar),
 * two outgoing requests (to Dune, Elm) and one stranger (Fern).
 * Followers of star: Amber, Brook, Cedar. Following: Amber, Brook, Dune, Elm.
 */
interface Star {
  star: TestUser;
  amber: TestUser;
  brook: TestUser;
  cedar: TestUser;
  dune: TestUser;
  elm: TestUser;
  fern: TestUser;
}
let world: Star;
beforeAll(async () => {
  const t = tag('st');
  const named = (name: string) => social.user({ displayName: `${name} ${t}` });
  // amber and elm in lower case: the order ignores case.
  const [star, amber, brook, cedar, dune, elm, fern] = await Promise.all(
    ['Star', 'amber', 'Brook', 'Cedar', 'Dune', 'elm', 'Fern'].map((name) => named(name)),
  ) as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
  world = { star, amber, brook, cedar, dune, elm, fern };
  await Promise.all([social.befriend(star, amber), social.befriend(brook, star), request(cedar, star), request(star, dune), request(star, elm)]);
});

describe('followers and following', () => {
  it.each([
    { kind: 'followers', expected: ['amber', 'brook', 'cedar'] },
    { kind: 'following', expected: ['amber', 'brook', 'dune', 'elm'] },
  ] as const)('$kind: friends plus pending requests, ordered by display name, with counts', async ({ kind, expected }) => {
    const list = ok<FollowList>(await social.as(world.fern).get(`/api/users/${world.star.id}/${kind}`));
    expect(idsOf(list.users)).toEqual(expected.map((k) => world[k].id));
    expect(list).toMatchObject({ total: expected.length, followersCount: 3, followingCount: 4 });
  });

  it('marks each entry with the viewer’s own relation to it', async () => {
    const list = ok<FollowList>(await social.as(world.amber).get(`/api/users/${world.star.id}/followers`));
    expect(list.users.map((u) => [u.id, u.friendshipStatus])).toEqual([
      [world.amber.id, 'none'],
      [world.brook.id, 'none'],
      [world.cedar.id, 'none'],
    ]);
    const following = ok<FollowList>(await social.as(world.dune).get(`/api/users/${world.star.id}/following`));
    expect(following.users.find((u) => u.id === world.dune.id)?.friendshipStatus).toBe('none');
    const fromStar = ok<FollowList>(await social.as(world.star).get(`/api/users/${world.star.id}/following`));
    expect(fromStar.users.map((u) => u.friendshipStatus)).toEqual(['accepted', 'accepted', 'sent', 'sent']);
  });

  it.each([
    { kind: 'following', limit: 2, offset: 0, page: ['amber', 'brook'] },
    { kind: 'following', limit: 2, offset: 2, page: ['dune', 'elm'] },
    { kind: 'following', limit: 3, offset: 3, page: ['elm'] },
    { kind: 'following', limit: 2, offset: 4, page: [] },
    { kind: 'following', limit: 5, offset: 50, page: [] },
    { kind: 'followers', limit: 1, offset: 1, page: ['brook'] },
    { kind: 'followers', limit: 50, offset: 0, page: ['amber', 'brook', 'cedar'] },
  ] as const)('$kind?limit=$limit&offset=$offset pages, and keeps the total on every page', async ({ kind, limit, offset, page }) => {
    const list = ok<FollowList>(await social.as(world.fern).get(`/api/users/${world.star.id}/${kind}?limit=${limit}&offset=${offset}`));
    expect(idsOf(list.users)).toEqual(page.map((k) => world[k].id));
    expect(list.total).toBe(kind === 'followers' ? 3 : 4);
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await social.as(world.fern).get('/api/users/00000000-0000-4000-8000-000000000000/followers'), 404, { message: 'User not found' });
    expectError(await social.as(world.fern).get('/api/users/00000000-0000-4000-8000-000000000000/following'), 404, { message: 'User not found' });
  });
});

describe('stats', () => {
  it('/api/users/{id}/stats: follow counts, and session numbers 0 without sessions', async () => {
    expect(ok<UserStats>(await social.as(world.fern).get(`/api/users/${world.star.id}/stats`))).toEqual({
      totalSessions: 0,
      totalHours: 0,
      followersCount: 3,
      followingCount: 4,
    });
    expectError(await social.as(world.fern).get('/api/users/00000000-0000-4000-8000-000000000000/stats'), 404, { message: 'User not found' });
  });

  it('/api/me/stats: friends, followers and following of the caller; zeros for a newcomer', async () => {
    expect(ok<MyStats>(await social.as(world.star).get('/api/me/stats'))).toEqual({
      totalSessions: 0,
      totalHours: 0,
      weeklyTotal: 0,
      friendsCount: 2,
      followersCount: 3,
      followingCount: 4,
    });
    expect(ok<MyStats>(await social.as(world.cedar).get('/api/me/stats'))).toMatchObject({ friendsCount: 0, followersCount: 0, followingCount: 1 });
    const newcomer = await social.user();
    expect(ok<MyStats>(await social.as(newcomer).get('/api/me/stats'))).toEqual({
      totalSessions: 0,
      totalHours: 0,
      weeklyTotal: 0,
      friendsCount: 0,
      followersCount: 0,
      followingCount: 0,
    });
  });

  it('sums sessions from the session read model: hours to one decimal, beers of the last 7 days', async () => {
    const drinker = await social.user();
    await addSessions(social, drinker, [
      { beers: 3, minutes: 50, daysAgo: 1 },
      { beers: 2, minutes: 50, daysAgo: 6 },
      { beers: 7, minutes: 30, daysAgo: 9 },
    ]);
    expect(ok<MyStats>(await social.as(drinker).get('/api/me/stats'))).toMatchObject({ totalSessions: 3, totalHours: 2.2, weeklyTotal: 5 });
    expect(ok<UserStats>(await social.as(world.fern).get(`/api/users/${drinker.id}/stats`))).toMatchObject({ totalSessions: 3, totalHours: 2.2 });
    expect(ok<OtherUser>(await social.as(world.fern).get(`/api/users/${drinker.id}`)).totalSessions).toBe(3);
  });
});

describe('friends lists', () => {
  it('/api/friends and /api/me/friends list accepted friends only, with their card and flags', async () => {
    const list = ok<Friend[]>(await social.as(world.star).get('/api/friends'));
    expect(new Set(idsOf(list))).toEqual(new Set([world.amber.id, world.brook.id]));
    expect(list.find((f) => f.id === world.amber.id)).toEqual({
      id: world.amber.id,
      username: world.amber.username,
      displayName: world.amber.displayName,
      profilePicture: null,
      avatar: null,
      bio: world.amber.snapshot.bio,
      isProfilePrivate: false,
      friendshipId: expect.any(String),
      isPinned: false,
      isMuted: false,
      pinnedOrder: null,
      friendsSince: expect.any(String),
    });
    expect(ok<Friend[]>(await social.as(world.star).get('/api/me/friends'))).toEqual(list);
    expect(ok<Friend[]>(await social.as(world.dune).get('/api/friends'))).toEqual([]);
  });

  it('shows a private friend’s bio to their friends', async () => {
    const [me, shy] = await Promise.all([social.user(), social.user({ private: true })]);
    await social.befriend(me, shy);
    expect(ok<Friend[]>(await social.as(me).get('/api/friends'))).toEqual([expect.objectContaining({ id: shy.id, bio: shy.snapshot.bio })]);
  });

  it('counts mutual friends on profiles and in search', async () => {
    // amber and brook are both friends of star; a viewer befriends both.
    const viewer = await social.user();
    await social.befriend(viewer, world.amber);
    await social.befriend(viewer, world.brook);
    expect(ok<OtherUser>(await social.as(viewer).get(`/api/users/${world.star.id}`)).mutualFriends).toBe(2);
    const hit = ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${encodeURIComponent(world.star.displayName)}`)).find(
      (u) => u.id === world.star.id,
    );
    expect(hit?.mutualFriends).toBe(2);
    expect(ok<OtherUser>(await social.as(world.fern).get(`/api/users/${world.star.id}`)).mutualFriends).toBe(0);
  });
});

describe('profiles', () => {
  it.each([
    { name: 'exact', variant: (u: string) => u },
    { name: 'upper case', variant: (u: string) => u.toUpperCase() },
    { name: 'lower case', variant: (u: string) => u.toLowerCase() },
  ])('finds a profile by username ($name)', async ({ variant }) => {
    const [target, viewer] = await Promise.all([social.user({ username: `Mixed_${tag('Case')}` }), social.user()]);
    const byName = ok<OtherUser>(await social.as(viewer).get(`/api/users/profile/${variant(target.username)}`));
    const byId = ok<OtherUser>(await social.as(viewer).get(`/api/users/${target.id}`));
    expect(byName).toEqual(byId);
    expect(byName.username).toBe(target.username);
  });

  it.each([
    { name: 'an unknown username', path: 'nobody_here_at_all' },
    { name: "a LIKE wildcard '%'", path: '%25' },
    { name: "a LIKE wildcard '_' standing for another user's letter", path: 'wild_x' },
    { name: 'a username with a trailing wildcard', path: 'wildcx%25' },
  ])('answers 404 for $name (usernames match literally)', async ({ path }) => {
    const [viewer] = await Promise.all([social.user(), social.user({ username: `wildcx${Date.now()}` }), social.user({ username: 'wildXx' })]);
    expectError(await social.as(viewer).get(`/api/users/profile/${path}`), 404, { message: 'User not found' });
  });

  it('tells two usernames apart that differ only where one has an underscore', async () => {
    const t = tag('us');
    const [withUnderscore, withLetter, viewer] = await Promise.all([social.user({ username: `${t}_a` }), social.user({ username: `${t}xa` }), social.user()]);
    expect(ok<OtherUser>(await social.as(viewer).get(`/api/users/profile/${t}xa`)).id).toBe(withLetter.id);
    expect(ok<OtherUser>(await social.as(viewer).get(`/api/users/profile/${t}_a`)).id).toBe(withUnderscore.id);
  });

  it("shows whether a person shows their online status only to whom their profile shows its details (issue 39)", async () => {
    const [priv, pub, stranger] = await Promise.all([social.user({ private: true }), social.user(), social.user()]);
    expect(ok<OtherUser>(await social.as(stranger).get(`/api/users/${priv.id}`)).showOnlineStatus).toBe(false);
    expect(ok<OtherUser>(await social.as(stranger).get(`/api/users/${pub.id}`)).showOnlineStatus).toBe(true);
    await social.befriend(priv, stranger);
    expect(ok<OtherUser>(await social.as(stranger).get(`/api/users/${priv.id}`)).showOnlineStatus).toBe(true);
  });

  it('shows the full profile shape to self', async () => {
    const me = await social.user({ private: true });
    expect(ok<OtherUser>(await social.as(me).get(`/api/users/${me.id}`))).toEqual({
      id: me.id,
      username: me.username,
      displayName: me.displayName,
      profilePicture: null,
      avatar: null,
      bio: me.snapshot.bio,
      email: me.email,
      createdAt: me.snapshot.createdAt,
      joinDate: me.snapshot.createdAt,
      isProfilePrivate: true,
      allowDirectMessages: true,
      showOnlineStatus: true,
      friendshipStatus: 'none',
      friendshipId: null,
      totalSessions: 0,
      mutualFriends: 0,
      canViewDetails: true,
    });
    expectError(await social.as(me).get('/api/users/00000000-0000-4000-8000-000000000000'), 404, { message: 'User not found' });
  });
});

describe('search', () => {
  it('matches username or display name case-insensitively, prefix matches first, and pages', async () => {
    const t = tag('sr');
    const [viewer, inside, prefix, second] = await Promise.all([
      social.user(),
      social.user({ displayName: `Aaa inner ${t}` }),
      social.user({ username: `${t}_zz`, displayName: 'Zz Last' }),
      social.user({ displayName: `${t.toUpperCase()} Second` }),
    ]);
    const all = ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}`));
    // prefix matches (by display name, case-insensitive), then the substring match
    expect(idsOf(all)).toEqual([second.id, prefix.id, inside.id]);
    expect(idsOf(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}&limit=2`)))).toEqual([second.id, prefix.id]);
    expect(idsOf(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}&limit=2&offset=2`)))).toEqual([inside.id]);
    expect(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}&offset=3`))).toEqual([]);
    // surrounding blanks are trimmed
    expect(idsOf(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=%20%20${t}%20`)))).toHaveLength(3);
  });

  it.each([
    { name: '%', char: '%' },
    { name: '_', char: '_' },
    { name: '\\', char: '\\' },
  ])("takes '$name' literally, not as a LIKE pattern", async ({ char }) => {
    const t = tag('lit');
    const [viewer, target] = await Promise.all([social.user(), social.user({ username: `${t}ab`, displayName: `${t}ab` })]);
    const search = async (q: string) => ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${encodeURIComponent(q)}`));
    expect(idsOf(await search(`${t}a`))).toEqual([target.id]);
    expect(await search(`${t}${char}b`)).toEqual([]);
    expect(await search(`${t}a${char}`)).toEqual([]);
  });

  it('shows each hit with the viewer’s status and no e-mail for non-friends', async () => {
    const t = tag('ss');
    const [viewer, friend, asked, asker, stranger] = await Promise.all([
      social.user(),
      social.user({ displayName: `${t} friend` }),
      social.user({ displayName: `${t} asked` }),
      social.user({ displayName: `${t} asker` }),
      social.user({ displayName: `${t} stranger`, private: true }),
    ]);
    await Promise.all([social.befriend(viewer, friend), request(viewer, asked), request(asker, viewer)]);
    const hits = new Map(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}`)).map((u) => [u.id, u]));
    // The friend's "Show my e-mail to friends" is off (the default): the address stays theirs (issue 40).
    expect(hits.get(friend.id)).toMatchObject({ friendshipStatus: 'accepted', email: null });
    expect(hits.get(asked.id)).toMatchObject({ friendshipStatus: 'sent', email: null });
    expect(hits.get(asker.id)).toMatchObject({ friendshipStatus: 'pending', email: null });
    expect(hits.get(stranger.id)).toMatchObject({ friendshipStatus: 'none', email: null, canViewDetails: false, bio: null, isProfilePrivate: true });
    noContent(await social.as(stranger).post(`/api/friends/${viewer.id}/block`, {}));
    expect(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${t}`)).some((u) => u.id === stranger.id)).toBe(false);
  });
});

describe('GET /api/users/suggestions', () => {
  it('suggests friends of friends (most shared first), then active public profiles; never friends, requests, blocks or a private stranger', async () => {
    const [me, f1, f2, both, one, busy, shy, asker, blocked, friendOfAsker] = await Promise.all([
      social.user(),
      social.user(),
      social.user(),
      social.user(),
      social.user(),
      social.user(),
      social.user({ private: true }),
      social.user(),
      social.user(),
      social.user(),
    ]);
    await Promise.all([social.befriend(me, f1), social.befriend(me, f2), social.befriend(f1, both), social.befriend(f2, both), social.befriend(f1, one)]);
    await request(asker, me);
    await social.befriend(f1, asker);
    await social.befriend(f2, blocked);
    await social.befriend(f1, friendOfAsker);
    noContent(await social.as(me).post(`/api/friends/${blocked.id}/block`, {}));
    await addSessions(social, busy, Array.from({ length: 150 }, () => ({})));
    await addSessions(social, shy, Array.from({ length: 200 }, () => ({})));

    const list = ok<OtherUser[]>(await social.as(me).get('/api/users/suggestions?limit=20'));
    const ids = idsOf(list);
    expect(list[0]).toMatchObject({ id: both.id, mutualFriends: 2, friendshipStatus: 'none' });
    expect(ids.slice(1, 3).sort()).toEqual([one.id, friendOfAsker.id].sort());
    expect(ids[3]).toBe(busy.id);
    for (const excluded of [me, f1, f2, asker, blocked, shy]) expect(ids, excluded.username).not.toContain(excluded.id);
    expect(idsOf(ok<OtherUser[]>(await social.as(me).get('/api/users/suggestions?limit=1')))).toEqual([both.id]);
  });

  it('answers 400 naming the field for a bad limit', async () => {
    const me = await social.user();
    expectError(await social.as(me).get('/api/users/suggestions?limit=0'), 400, { field: 'limit' });
    expectError(await social.as(me).get('/api/users/suggestions?limit=21'), 400, { field: 'limit' });
    expectError(await social.as(me).get('/api/users/suggestions?limit=many'), 400, { field: 'limit' });
  });
});
