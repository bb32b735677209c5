import type { Album, Challenge, FeedSession, OtherUser, Photo } from '@hoptrack/proto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { Api, jpeg, RUN, settle, until, type Account } from './visibility/api';
import {
  EXPECTED,
  EXPECTED_UNKNOWN,
  expectedOutcome,
  SURFACES,
  UNKNOWN_VIEWER_KINDS,
  VIEWER_KINDS,
  type AuthorKind,
  type ViewerKind,
} from './visibility/expected';
import { holdPeopleConsumer, serviceKnows, type Hold } from './visibility/hold';
import { cellKey, compare, describeMismatches, grid } from './visibility/matrix';
import { leaksIn, PROBES, urlsHandedTo, type AuthorWorld, type Pair, type World } from './visibility/probes';

/**
 * Issue 9, item 12: the visibility matrix. A public and a private author each
 * log two sessions and an album photo; for each, eight viewers stand in every
 * relation the product knows (self, friend, pending either way, stranger,
 * blocked either way, muted), and every surface that shows an author's things
 * (feed, session, profile, sessions list, photos and their files, search,
 * followers, counts, mutual friends) is read by every viewer through the
 * gateway of a real stack. Issue 19 adds a third author, registered while the
 * services' people consumers are held (visibility/hold.ts), read by themselves
 * and a stranger before any service has heard of them. Issue 23 adds the
 * challenges: every author completes today's 'Take it slow', read on their
 * profile's completed row and among that challenge's participants (friends
 * only). Each cell is compared
 * with the tables in visibility/expected.ts (spec section 6, docs/decisions.md,
 * the audience policy), and every answer is scanned for markers the viewer
 * may not see. Report: `mismatched cells X of N`.
 */
const REPORT_FILE = path.join(tmpdir(), 'hoptrack-visibility-matrix.json');
const OTHERS = VIEWER_KINDS.filter((v): v is Exclude<ViewerKind, 'self'> => v !== 'self');
/** The authors every relationship is built around; the unknown one has none. */
const KNOWN_AUTHORS = ['public', 'private'] as const;
type KnownAuthor = (typeof KNOWN_AUTHORS)[number];
/** The services whose people consumers the unknown author's cells are read behind (the ones the probes read). */
const HELD_SERVICES = ['social-graph', 'sessions', 'media', 'challenges'] as const;

interface Cast {
  author: Account;
  viewers: Record<Exclude<ViewerKind, 'self'>, Account>;
}

describe('visibility matrix (issue 9, item 12)', () => {
  let stack: Stack;
  let api: Api;
  let world: World;
  const authors = {} as Record<AuthorKind, AuthorWorld>;
  const casts = {} as Record<KnownAuthor, Cast>;
  /** The unknown author's cells, read in beforeAll while the hold stands. */
  let unknownActual = new Map<string, string>();

  beforeAll(async () => {
    // Hundreds of calls from one address: lift the gateway's per-address limit for this run.
    stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
    api = new Api(stack.baseUrl);

    // ---- people ----
    const short = { public: 'pub', private: 'prv' } as const;
    const [hub, probe, barrier, plug, newStranger, ...castList] = await Promise.all([
      api.register(`vmhub_${RUN}`, 'Matrix Hub'),
      api.register(`vmprobe_${RUN}`, 'Matrix Probe'),
      api.register(`vmbarrier_${RUN}`, 'Matrix Barrier'),
      // The unknown author's: the person whose row holds the people consumers, and the stranger who reads them.
      api.register(`vmplug_${RUN}`, 'Matrix Plug'),
      api.register(`v${RUN}_new_stranger`, 'Viewer stranger'),
      ...KNOWN_AUTHORS.map(async (kind): Promise<Cast> => {
        const [author, ...viewers] = await Promise.all([
          api.register(`${short[kind]}author_${RUN}`, `${kind === 'public' ? 'Public' : 'Private'} Author`),
          ...OTHERS.map((v) => api.register(`v${RUN}_${short[kind]}_${v}`, `Viewer ${v}`)),
        ]);
        return { author: author as Account, viewers: Object.fromEntries(OTHERS.map((v, i) => [v, viewers[i] as Account])) as Cast['viewers'] };
      }),
    ]);
    if (!hub || !probe || !barrier || !plug || !newStranger) throw new Error('registration failed');
    KNOWN_AUTHORS.forEach((kind, i) => (casts[kind] = castList[i] as Cast));
    world = { api, hub };
    const bio: Record<AuthorKind, string> = { public: `bio-marker-${RUN}-pub`, private: `bio-marker-${RUN}-prv`, unknown: `bio-marker-${RUN}-new` };

    for (const kind of KNOWN_AUTHORS) await api.must(casts[kind].author.token, 'PATCH', '/api/me', { bio: bio[kind] });
    await api.must(casts.private.author.token, 'PUT', '/api/privacy', { isProfilePrivate: true });
    await api.must(barrier.token, 'PUT', '/api/privacy', { isProfilePrivate: true });

    // Every service has heard of everyone, and of the private switches (read models, by events).
    const everyone = [hub, barrier, plug, newStranger, ...KNOWN_AUTHORS.flatMap((k) => [casts[k].author, ...Object.values(casts[k].viewers)])];
    await settle('social-graph knows every user', async () => {
      const answers = await Promise.all(everyone.map((u) => api.call(probe.token, 'GET', `/api/users/${u.id}`)));
      return answers.every((a) => a.status === 200);
    });
    await settle('social-graph has the bio and the private switches', async () => {
      const [pub, prv, bar] = await Promise.all(
        [casts.public.author, casts.private.author, barrier].map(async (u) => (await api.call(probe.token, 'GET', `/api/users/${u.id}`)).body as OtherUser),
      );
      return pub?.bio === bio.public && prv?.canViewDetails === false && bar?.canViewDetails === false;
    });
    await settle('sessions, media and challenges know the private switches', async () => {
      const statuses = await Promise.all([
        api.call(probe.token, 'GET', `/api/users/${casts.public.author.id}/sessions`),
        api.call(probe.token, 'GET', `/api/users/${casts.private.author.id}/sessions`),
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/sessions`),
        api.call(probe.token, 'GET', `/api/albums?userId=${casts.private.author.id}`),
        api.call(probe.token, 'GET', `/api/albums?userId=${barrier.id}`),
        api.call(probe.token, 'GET', `/api/users/${casts.public.author.id}/challenges`),
        api.call(probe.token, 'GET', `/api/users/${casts.private.author.id}/challenges`),
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/challenges`),
      ]);
      return statuses.map((a) => a.status).join() === '200,403,403,403,403,200,403,403';
    });

    // ---- phase 1: friendships and requests ----
    const befriend = async (asker: Account, accepter: Account) => {
      const request = (await api.must(asker.token, 'POST', '/api/friendships', { friendId: accepter.id }, 201)) as { id: string };
      await api.must(accepter.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
    };
    const ask = (asker: Account, recipient: Account) => api.must(asker.token, 'POST', '/api/friendships', { friendId: recipient.id }, 201);
    for (const kind of KNOWN_AUTHORS) {
      const { author, viewers } = casts[kind];
      await befriend(viewers.friend, author);
      await befriend(viewers.muted, author);
      await befriend(viewers.blockedByAuthor, author);
      await befriend(hub, author);
      await ask(viewers.sent, author);
      await ask(viewers.blocker, author);
      await ask(author, viewers.received);
      // Every viewer who may read the author's profile shares a friend with them, the hub: mutual friends have something
      // to show (or withhold). Not the two the blocks will part from the author: the hub's lists would hide them from the
      // author, and the author's hub.counts cell is about the author, not about them.
      for (const viewer of [viewers.friend, viewers.muted, viewers.sent, viewers.received, viewers.stranger]) await befriend(viewer, hub);
    }

    // ---- the early sessions, seen by the friends-to-be-blocked before phase 2 ----
    // Each author first joins today's 'Take it slow', which the early session then completes: 90 minutes over 2 beers is
    // the 45 minutes a beer it asks. The marker session itself does it (no third session): the count surfaces expect 2.
    const early = {} as Record<KnownAuthor, FeedSession>;
    const challengeIds = {} as Record<AuthorKind, string>;
    for (const kind of KNOWN_AUTHORS) {
      challengeIds[kind] = await joinTakeItSlow(api, casts[kind].author);
      early[kind] = await logSession(api, casts[kind].author, { title: `early-marker-${RUN}-${kind}`, beerCount: '2', duration: '90' });
    }
    const feedHas = async (viewer: Account, sessionId: string) =>
      ((await api.call(viewer.token, 'GET', '/api/sessions?filter=all&limit=50')).body as FeedSession[] | null)?.some((s) => s.id === sessionId) ?? false;
    for (const kind of KNOWN_AUTHORS) {
      const { viewers } = casts[kind];
      // Followers at the time: friends (both authors) and, of the public author, the pending requesters.
      const followers = [viewers.friend, viewers.muted, viewers.blockedByAuthor, ...(kind === 'public' ? [viewers.sent, viewers.blocker] : [])];
      for (const viewer of followers) await settle(`the ${kind} author's early session in a follower's feed`, () => feedHas(viewer, early[kind].id));
    }

    // ---- the albums, while the to-be-blocked viewers still may see them: they are handed signed URLs ----
    const albums = {} as Record<AuthorKind, { album: Album; photo: Photo }>;
    for (const kind of KNOWN_AUTHORS) albums[kind] = await albumWithPhoto(api, casts[kind].author, kind, kind === 'public' ? '#208020' : '#802020');
    // Every viewer keeps the URLs it is handed now (both sizes and the cover): after phase 2 the blocked ones must stop serving.
    // First the witnesses that media has the friendships: the soon-blocked viewers who may see the album are handed all three.
    const soonBlocked: Array<[KnownAuthor, Account]> = [
      ['public', casts.public.viewers.blockedByAuthor],
      ['public', casts.public.viewers.blocker],
      ['private', casts.private.viewers.blockedByAuthor],
    ];
    for (const [kind, viewer] of soonBlocked) {
      await settle(`a soon-blocked viewer handed the ${kind} album URLs`, async () => (await urlsHandedTo(api, viewer, casts[kind].author.id, albums[kind].album.id)).urls.length === 3);
    }
    const handedEarlier = {} as Record<KnownAuthor, Partial<Record<ViewerKind, string[]>>>;
    for (const kind of KNOWN_AUTHORS) {
      handedEarlier[kind] = {};
      for (const viewerKind of VIEWER_KINDS) {
        const viewer = viewerKind === 'self' ? casts[kind].author : casts[kind].viewers[viewerKind];
        handedEarlier[kind][viewerKind] = (await urlsHandedTo(api, viewer, casts[kind].author.id, albums[kind].album.id)).urls;
      }
    }

    // ---- phase 2: blocks and mutes ----
    for (const kind of KNOWN_AUTHORS) {
      const { author, viewers } = casts[kind];
      await api.must(author.token, 'POST', `/api/friends/${viewers.blockedByAuthor.id}/block`, {}, 204);
      await api.must(viewers.blocker.token, 'POST', `/api/friends/${author.id}/block`, {}, 204);
      await api.must(viewers.muted.token, 'POST', `/api/friends/${author.id}/mute`, {}, 204);
    }
    // Barrier: one more SOCIAL event; once sessions, media and challenges have applied it they applied every earlier one
    // (one ordered consumer each).
    await befriend(probe, barrier);
    await settle('sessions, media and challenges applied every social event', async () => {
      const [sessionList, albumList, completedList] = await Promise.all([
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/sessions`),
        api.call(probe.token, 'GET', `/api/albums?userId=${barrier.id}`),
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/challenges`),
      ]);
      return sessionList.status === 200 && albumList.status === 200 && completedList.status === 200;
    });

    // ---- the late sessions, with a session photo ----
    for (const kind of KNOWN_AUTHORS) {
      const { author, viewers } = casts[kind];
      const sessionPhoto = await jpeg(kind === 'public' ? '#c08030' : '#3080c0');
      const late = await logSession(api, author, { title: `late-marker-${RUN}-${kind}`, beerCount: '3', duration: '90' }, sessionPhoto);
      if (!late.photo) throw new Error('the late session has no photo');
      const { album, photo } = albums[kind];
      const { pathname } = new URL(late.photo, stack.baseUrl);
      authors[kind] = {
        kind,
        account: author,
        bio: bio[kind],
        early: { id: early[kind].id, title: early[kind].title },
        late: { id: late.id, title: late.title, photoKey: pathname.replace('/api/media/files/', '') },
        album: { id: album.id, name: album.name },
        photo: {
          id: photo.id,
          displayKey: `display/${author.id}/${photo.id}.webp`,
          thumbKey: `thumbs/${author.id}/${photo.id}.webp`,
          originalKey: `originals/${author.id}/${photo.id}`,
          selfThumbUrl: photo.thumbnailUrl ?? '',
          handedEarlier: handedEarlier[kind],
        },
        followerIds: [viewers.friend.id, viewers.muted.id, viewers.sent.id, hub.id],
        followingIds: [viewers.friend.id, viewers.muted.id, viewers.received.id, hub.id],
        sharedFriends: sharedFriendsOf(author, viewers, hub),
        challengeId: challengeIds[kind],
      };
    }

    // ---- settle the asynchronous parts before reading any negative cell ----
    for (const kind of KNOWN_AUTHORS) {
      const { author } = casts[kind];
      // Stats come from session facts social-graph reads from SESSIONS.
      await settle(`the ${kind} author's stats count both sessions`, async () => ((await api.call(author.token, 'GET', '/api/me/stats')).body as { totalSessions?: number } | null)?.totalSessions === 2);
      // Completion comes from the session fact challenges reads from SESSIONS: until then every viewer would read 'hidden'.
      await settle(`the ${kind} author completed 'Take it slow'`, () => hasCompleted(api, author, challengeIds[kind]));
      // The fan-out: every viewer the table says sees the sessions in their feed has both (one job per batch of followers).
      for (const viewerKind of VIEWER_KINDS) {
        if (expectedOutcome('feed.all', kind, viewerKind) !== 'visible') continue;
        const viewer = viewerKind === 'self' ? author : casts[kind].viewers[viewerKind];
        await until(async () => (await feedHas(viewer, authors[kind].early.id)) && (await feedHas(viewer, authors[kind].late.id)), 20_000);
      }
    }

    // ---- the unknown author: registered, logging and uploading while no service may apply it (visibility/hold.ts) ----
    const databases = HELD_SERVICES.map((service) => {
      const url = stack.services[service].options.env.DATABASE_URL;
      if (!url) throw new Error(`${service} has no DATABASE_URL`);
      return { service, url };
    });
    for (const { service, url } of databases) await settle(`${service} knows the plug`, () => serviceKnows(url, plug.id));
    const holds: Hold[] = [];
    try {
      for (const { service, url } of databases) holds.push(await holdPeopleConsumer(service, url, plug.id));
      await api.must(plug.token, 'PATCH', '/api/me', { bio: `plug-${RUN}` });
      // Each consumer has reached the plug's event and waits on the lock: whatever auth announces next waits behind it.
      for (const hold of holds) await settle(`${hold.service}'s people consumer stopped at the plug's event`, () => hold.engaged(), 30_000);

      const newcomer = await api.register(`newauthor_${RUN}`, 'New Author');
      await api.must(newcomer.token, 'PATCH', '/api/me', { bio: bio.unknown });
      // The newcomer completes 'Take it slow' as the others do (45 minutes, 1 beer), held or not: joining reads none of
      // challenges' audience tables, and the session's fact comes on SESSIONS, which the hold leaves alone.
      challengeIds.unknown = await joinTakeItSlow(api, newcomer);
      const newEarly = await logSession(api, newcomer, { title: `early-marker-${RUN}-unknown`, beerCount: '1', duration: '45' });
      const newLate = await logSession(api, newcomer, { title: `late-marker-${RUN}-unknown`, beerCount: '2', duration: '40' }, await jpeg('#30c080'));
      if (!newLate.photo) throw new Error("the newcomer's late session has no photo");
      albums.unknown = await albumWithPhoto(api, newcomer, 'unknown', '#208080');
      const { album, photo } = albums.unknown;
      authors.unknown = {
        kind: 'unknown',
        account: newcomer,
        bio: bio.unknown,
        early: { id: newEarly.id, title: newEarly.title },
        late: { id: newLate.id, title: newLate.title, photoKey: new URL(newLate.photo, stack.baseUrl).pathname.replace('/api/media/files/', '') },
        album: { id: album.id, name: album.name },
        photo: {
          id: photo.id,
          displayKey: `display/${newcomer.id}/${photo.id}.webp`,
          thumbKey: `thumbs/${newcomer.id}/${photo.id}.webp`,
          originalKey: `originals/${newcomer.id}/${photo.id}`,
          selfThumbUrl: photo.thumbnailUrl ?? '',
          handedEarlier: {},
        },
        followerIds: [],
        followingIds: [],
        sharedFriends: {},
        challengeId: challengeIds.unknown,
      };
      await settle("the newcomer completed 'Take it slow'", () => hasCompleted(api, newcomer, challengeIds.unknown));
      const viewersOfNewcomer: Record<(typeof UNKNOWN_VIEWER_KINDS)[number], Account> = { self: newcomer, stranger: newStranger };
      unknownActual = await readCells(
        world,
        UNKNOWN_VIEWER_KINDS.map((viewerKind) => ({ author: authors.unknown, viewerKind, viewer: viewersOfNewcomer[viewerKind] })),
      );
      // The cells were read in the unknown state only if no held service had applied the registration by now.
      const knownBy = (await Promise.all(holds.map(async (hold) => ((await hold.knows(newcomer.id)) ? hold.service : null)))).filter((s) => s !== null);
      if (knownBy.length) throw new Error(`the hold did not hold: ${knownBy.join(', ')} applied the newcomer's registration before their cells were read`);
    } finally {
      await Promise.all(holds.map((hold) => hold.release()));
    }
    // Released, the events flow again: every service applies the registration (nothing was lost or parked).
    const newcomerId = authors.unknown.account.id;
    await settle('every service applied the newcomer once the hold was released', async () => {
      const [profile, sessionList, albumList, completedList] = await Promise.all([
        api.call(newStranger.token, 'GET', `/api/users/${newcomerId}`),
        api.call(newStranger.token, 'GET', `/api/users/${newcomerId}/sessions`),
        api.call(newStranger.token, 'GET', `/api/albums?userId=${newcomerId}`),
        api.call(newStranger.token, 'GET', `/api/users/${newcomerId}/challenges`),
      ]);
      return profile.status === 200 && sessionList.status === 200 && albumList.status === 200 && completedList.status === 200;
    }, 60_000);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('has a cell for every author kind, viewer kind and surface', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...SURFACES].sort());
    expect(Object.keys(EXPECTED_UNKNOWN).sort()).toEqual([...SURFACES].sort());
    for (const surface of SURFACES) {
      expect(Object.keys(EXPECTED[surface]).sort()).toEqual([...VIEWER_KINDS].sort());
      expect(Object.keys(EXPECTED_UNKNOWN[surface]).sort()).toEqual([...UNKNOWN_VIEWER_KINDS].sort());
    }
  });

  it('every cell matches the expected visibility (mismatched cells 0 of N)', async () => {
    const pairs: Pair[] = KNOWN_AUTHORS.flatMap((kind) =>
      VIEWER_KINDS.map((viewerKind) => ({
        author: authors[kind],
        viewerKind,
        viewer: viewerKind === 'self' ? casts[kind].author : casts[kind].viewers[viewerKind],
      })),
    );
    // The unknown author's cells were read in beforeAll, while the services had not heard of them.
    const actual = new Map([...(await readCells(world, pairs)), ...unknownActual]);

    const { cells, mismatches } = compare(actual);
    const summary = `mismatched cells ${mismatches.length} of ${cells.length}`;
    writeFileSync(REPORT_FILE, JSON.stringify({ run: RUN, summary, mismatched: mismatches.length, cells: cells.length, mismatches, matrix: cells }, null, 2));
    console.info(`visibility matrix: ${summary} (${REPORT_FILE})\n${grid(cells)}`);
    // A cell that answered 5xx says why in its service's log: the errors of every process, beside the cells.
    const errors = mismatches.some((m) => /status:5/.test(m.actual))
      ? Object.values(stack.instances).flatMap((list) => list.flatMap((p) => p.lines.filter((line) => /"level":(50|60)/.test(line)).slice(-5).map((line) => `[${p.name}] ${line.slice(0, 1500)}`)))
      : [];
    expect(mismatches.length, `${summary}:\n${describeMismatches(mismatches)}${errors.length ? `\n${errors.join('\n')}` : ''}`).toBe(0);
  }, 180_000);
});

/** Reads every surface for each pair, pairs side by side and each pair's surfaces one after another (~16 requests in flight). */
async function readCells(world: World, pairs: Pair[]): Promise<Map<string, string>> {
  const actual = new Map<string, string>();
  await Promise.all(
    pairs.map(async (pair) => {
      for (const surface of SURFACES) {
        const reading = await PROBES[surface](world, pair);
        const leaks = leaksIn(reading, pair);
        actual.set(cellKey(pair.author.kind, pair.viewerKind, surface), leaks.length ? `${reading.outcome} +leak(${leaks.join(', ')})` : reading.outcome);
      }
    }),
  );
  return actual;
}

/**
 * How many friends each viewer shares with the author (what mutualFriends must
 * say where it may be shown): the author's friends are the friend, the muted
 * friend and the hub (the block ended the other friendship); every viewer but
 * the two in a block is a friend of the hub, the friend and the muted one of
 * the author as well.
 */
function sharedFriendsOf(author: Account, viewers: Cast['viewers'], hub: Account): Partial<Record<ViewerKind, number>> {
  const authorsFriends = [viewers.friend.id, viewers.muted.id, hub.id];
  const friendsOf = (viewerKind: ViewerKind): string[] => {
    if (viewerKind === 'self') return authorsFriends;
    if (viewerKind === 'friend' || viewerKind === 'muted') return [author.id, hub.id];
    return viewerKind === 'blockedByAuthor' || viewerKind === 'blocker' ? [] : [hub.id];
  };
  return Object.fromEntries(VIEWER_KINDS.map((v) => [v, friendsOf(v).filter((id) => authorsFriends.includes(id)).length]));
}

/** An album of the author's with one photo, waited on until processed (as its author reads it). */
async function albumWithPhoto(api: Api, author: Account, kind: AuthorKind, colour: string): Promise<{ album: Album; photo: Photo }> {
  const album = (await api.must(author.token, 'POST', '/api/albums', { name: `album-marker-${RUN}-${kind}` }, 201)) as Album;
  const upload = await api.multipart(author.token, `/api/albums/${album.id}/photos`, {}, [{ field: 'photos', name: `${kind}.jpg`, type: 'image/jpeg', data: await jpeg(colour) }]);
  if (upload.status !== 201) throw new Error(`photo upload: ${upload.status} ${upload.text}`);
  const [uploaded] = upload.body as Photo[];
  if (!uploaded) throw new Error('no photo in the upload answer');
  let ready: Photo | undefined;
  await settle(`the ${kind} author's photo processed`, async () => {
    ready = ((await api.call(author.token, 'GET', `/api/albums/${album.id}/photos`)).body as Photo[] | null)?.find((p) => p.id === uploaded.id && p.status === 'ready');
    return ready !== undefined;
  }, 30_000);
  if (!ready?.thumbnailUrl) throw new Error('the ready photo has no thumbnail URL');
  return { album, photo: ready };
}

/**
 * Joins today's (UTC) 'Take it slow' as `person`; its id. The test stack
 * publishes every kind every day, so it is there whatever the date.
 */
async function joinTakeItSlow(api: Api, person: Account): Promise<string> {
  const today = (await api.must(person.token, 'GET', '/api/challenges?timeZone=UTC')) as Challenge[];
  const slow = today.find((c) => c.challengeType === 'slow_pace');
  if (!slow) throw new Error(`no 'Take it slow' today: ${today.map((c) => c.challengeType).join(', ')}`);
  await api.must(person.token, 'POST', `/api/challenges/${slow.id}/join`, { timeZone: 'UTC' }, 200);
  return slow.id;
}

/** Whether `person`'s own completed challenges list that one (their own list: no privacy rule in the way). */
async function hasCompleted(api: Api, person: Account, challengeId: string): Promise<boolean> {
  return ((await api.call(person.token, 'GET', '/api/me/challenges?status=completed&limit=50')).body as Challenge[] | null)?.some((c) => c.id === challengeId) ?? false;
}

/** POST /api/sessions as multipart (the only form it takes), with an optional session photo. */
async function logSession(api: Api, author: Account, fields: Record<string, string>, photo?: Buffer): Promise<FeedSession> {
  const answer = await api.multipart(author.token, '/api/sessions', fields, photo ? [{ field: 'sessionPhoto', name: 'session.jpg', type: 'image/jpeg', data: photo }] : []);
  if (answer.status !== 201) throw new Error(`log session: ${answer.status} ${answer.text}`);
  return answer.body as FeedSession;
}
