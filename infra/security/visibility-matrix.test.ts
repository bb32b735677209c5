import type { Album, FeedSession, OtherUser, Photo } from '@hoptrack/proto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { Api, jpeg, RUN, settle, until, type Account } from './visibility/api';
import { AUTHOR_KINDS, EXPECTED, expectedOutcome, SURFACES, VIEWER_KINDS, type AuthorKind, type ViewerKind } from './visibility/expected';
import { cellKey, compare, describeMismatches, grid } from './visibility/matrix';
import { leaksIn, PROBES, urlsHandedTo, type AuthorWorld, type Pair, type World } from './visibility/probes';

/**
 * Issue 9, item 12: the visibility matrix. A public and a private author each
 * log two sessions and an album photo; for each, eight viewers stand in every
 * relation the product knows (self, friend, pending either way, stranger,
 * blocked either way, muted), and every surface that shows an author's things
 * (feed, session, profile, sessions list, photos and their files, search,
 * followers, counts) is read by every viewer through the gateway of a real
 * stack. Each cell is compared with the table in visibility/expected.ts
 * (spec section 6 and docs/decisions.md), and every answer is scanned for
 * markers the viewer may not see. Report: `mismatched cells X of N`.
 */
const REPORT_FILE = path.join(tmpdir(), 'hoptrack-visibility-matrix.json');
const OTHERS = VIEWER_KINDS.filter((v): v is Exclude<ViewerKind, 'self'> => v !== 'self');

interface Cast {
  author: Account;
  viewers: Record<Exclude<ViewerKind, 'self'>, Account>;
}

describe('visibility matrix (issue 9, item 12)', () => {
  let stack: Stack;
  let api: Api;
  let world: World;
  const authors = {} as Record<AuthorKind, AuthorWorld>;
  const casts = {} as Record<AuthorKind, Cast>;

  beforeAll(async () => {
    // Hundreds of calls from one address: lift the gateway's per-address limit for this run.
    stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
    api = new Api(stack.baseUrl);

    // ---- people ----
    const short = { public: 'pub', private: 'prv' } as const;
    const [hub, probe, barrier, ...castList] = await Promise.all([
      api.register(`vmhub_${RUN}`, 'Matrix Hub'),
      api.register(`vmprobe_${RUN}`, 'Matrix Probe'),
      api.register(`vmbarrier_${RUN}`, 'Matrix Barrier'),
      ...AUTHOR_KINDS.map(async (kind): Promise<Cast> => {
        const [author, ...viewers] = await Promise.all([
          api.register(`${short[kind]}author_${RUN}`, `${kind === 'public' ? 'Public' : 'Private'} Author`),
          ...OTHERS.map((v) => api.register(`v${RUN}_${short[kind]}_${v}`, `Viewer ${v}`)),
        ]);
        return { author: author as Account, viewers: Object.fromEntries(OTHERS.map((v, i) => [v, viewers[i] as Account])) as Cast['viewers'] };
      }),
    ]);
    if (!hub || !probe || !barrier) throw new Error('registration failed');
    AUTHOR_KINDS.forEach((kind, i) => (casts[kind] = castList[i] as Cast));
    world = { api, hub };
    const bio = { public: `bio-marker-${RUN}-pub`, private: `bio-marker-${RUN}-prv` };

    for (const kind of AUTHOR_KINDS) await api.must(casts[kind].author.token, 'PATCH', '/api/me', { bio: bio[kind] });
    await api.must(casts.private.author.token, 'PUT', '/api/privacy', { isProfilePrivate: true });
    await api.must(barrier.token, 'PUT', '/api/privacy', { isProfilePrivate: true });

    // Every service has heard of everyone, and of the private switches (read models, by events).
    const everyone = [hub, barrier, ...AUTHOR_KINDS.flatMap((k) => [casts[k].author, ...Object.values(casts[k].viewers)])];
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
    await settle('sessions and media know the private switches', async () => {
      const statuses = await Promise.all([
        api.call(probe.token, 'GET', `/api/users/${casts.public.author.id}/sessions`),
        api.call(probe.token, 'GET', `/api/users/${casts.private.author.id}/sessions`),
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/sessions`),
        api.call(probe.token, 'GET', `/api/albums?userId=${casts.private.author.id}`),
        api.call(probe.token, 'GET', `/api/albums?userId=${barrier.id}`),
      ]);
      return statuses.map((a) => a.status).join() === '200,403,403,403,403';
    });

    // ---- phase 1: friendships and requests ----
    const befriend = async (asker: Account, accepter: Account) => {
      const request = (await api.must(asker.token, 'POST', '/api/friendships', { friendId: accepter.id }, 201)) as { id: string };
      await api.must(accepter.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
    };
    const ask = (asker: Account, recipient: Account) => api.must(asker.token, 'POST', '/api/friendships', { friendId: recipient.id }, 201);
    for (const kind of AUTHOR_KINDS) {
      const { author, viewers } = casts[kind];
      await befriend(viewers.friend, author);
      await befriend(viewers.muted, author);
      await befriend(viewers.blockedByAuthor, author);
      await befriend(hub, author);
      await ask(viewers.sent, author);
      await ask(viewers.blocker, author);
      await ask(author, viewers.received);
    }

    // ---- the early sessions, seen by the friends-to-be-blocked before phase 2 ----
    const early = {} as Record<AuthorKind, FeedSession>;
    for (const kind of AUTHOR_KINDS) {
      early[kind] = await logSession(api, casts[kind].author, { title: `early-marker-${RUN}-${kind}`, beerCount: '2', duration: '30' });
    }
    const feedHas = async (viewer: Account, sessionId: string) =>
      ((await api.call(viewer.token, 'GET', '/api/sessions?filter=all&limit=50')).body as FeedSession[] | null)?.some((s) => s.id === sessionId) ?? false;
    for (const kind of AUTHOR_KINDS) {
      const { viewers } = casts[kind];
      // Followers at the time: friends (both authors) and, of the public author, the pending requesters.
      const followers = [viewers.friend, viewers.muted, viewers.blockedByAuthor, ...(kind === 'public' ? [viewers.sent, viewers.blocker] : [])];
      for (const viewer of followers) await settle(`the ${kind} author's early session in a follower's feed`, () => feedHas(viewer, early[kind].id));
    }

    // ---- the albums, while the to-be-blocked viewers still may see them: they are handed signed URLs ----
    const albums = {} as Record<AuthorKind, { album: Album; photo: Photo }>;
    for (const kind of AUTHOR_KINDS) {
      const { author } = casts[kind];
      const album = (await api.must(author.token, 'POST', '/api/albums', { name: `album-marker-${RUN}-${kind}` }, 201)) as Album;
      const upload = await api.multipart(author.token, `/api/albums/${album.id}/photos`, {}, [
        { field: 'photos', name: `${kind}.jpg`, type: 'image/jpeg', data: await jpeg(kind === 'public' ? '#208020' : '#802020') },
      ]);
      if (upload.status !== 201) throw new Error(`photo upload: ${upload.status} ${upload.text}`);
      const [uploaded] = upload.body as Photo[];
      if (!uploaded) throw new Error('no photo in the upload answer');
      let ready: Photo | undefined;
      await settle(`the ${kind} author's photo processed`, async () => {
        ready = ((await api.call(author.token, 'GET', `/api/albums/${album.id}/photos`)).body as Photo[] | null)?.find((p) => p.id === uploaded.id && p.status === 'ready');
        return ready !== undefined;
      }, 30_000);
      if (!ready?.thumbnailUrl) throw new Error('the ready photo has no thumbnail URL');
      albums[kind] = { album, photo: ready };
    }
    // Every viewer keeps the URLs it is handed now (both sizes and the cover): after phase 2 the blocked ones must stop serving.
    // First the witnesses that media has the friendships: the soon-blocked viewers who may see the album are handed all three.
    const soonBlocked: Array<[AuthorKind, Account]> = [
      ['public', casts.public.viewers.blockedByAuthor],
      ['public', casts.public.viewers.blocker],
      ['private', casts.private.viewers.blockedByAuthor],
    ];
    for (const [kind, viewer] of soonBlocked) {
      await settle(`a soon-blocked viewer handed the ${kind} album URLs`, async () => (await urlsHandedTo(api, viewer, casts[kind].author.id, albums[kind].album.id)).urls.length === 3);
    }
    const handedEarlier = {} as Record<AuthorKind, Partial<Record<ViewerKind, string[]>>>;
    for (const kind of AUTHOR_KINDS) {
      handedEarlier[kind] = {};
      for (const viewerKind of VIEWER_KINDS) {
        const viewer = viewerKind === 'self' ? casts[kind].author : casts[kind].viewers[viewerKind];
        handedEarlier[kind][viewerKind] = (await urlsHandedTo(api, viewer, casts[kind].author.id, albums[kind].album.id)).urls;
      }
    }

    // ---- phase 2: blocks and mutes ----
    for (const kind of AUTHOR_KINDS) {
      const { author, viewers } = casts[kind];
      await api.must(author.token, 'POST', `/api/friends/${viewers.blockedByAuthor.id}/block`, {}, 204);
      await api.must(viewers.blocker.token, 'POST', `/api/friends/${author.id}/block`, {}, 204);
      await api.must(viewers.muted.token, 'POST', `/api/friends/${author.id}/mute`, {}, 204);
    }
    // Barrier: one more SOCIAL event; once sessions and media have applied it they applied every earlier one (one ordered consumer each).
    await befriend(probe, barrier);
    await settle('sessions and media applied every social event', async () => {
      const [sessionList, albumList] = await Promise.all([
        api.call(probe.token, 'GET', `/api/users/${barrier.id}/sessions`),
        api.call(probe.token, 'GET', `/api/albums?userId=${barrier.id}`),
      ]);
      return sessionList.status === 200 && albumList.status === 200;
    });

    // ---- the late sessions, with a session photo ----
    for (const kind of AUTHOR_KINDS) {
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
      };
    }

    // ---- settle the asynchronous parts before reading any negative cell ----
    for (const kind of AUTHOR_KINDS) {
      const { author } = casts[kind];
      // Stats come from session facts social-graph reads from SESSIONS.
      await settle(`the ${kind} author's stats count both sessions`, async () => ((await api.call(author.token, 'GET', '/api/me/stats')).body as { totalSessions?: number } | null)?.totalSessions === 2);
      // The fan-out: every viewer the table says sees the sessions in their feed has both (one job per batch of followers).
      for (const viewerKind of VIEWER_KINDS) {
        if (expectedOutcome('feed.all', kind, viewerKind) !== 'visible') continue;
        const viewer = viewerKind === 'self' ? author : casts[kind].viewers[viewerKind];
        await until(async () => (await feedHas(viewer, authors[kind].early.id)) && (await feedHas(viewer, authors[kind].late.id)), 20_000);
      }
    }
  }, 150_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('has a cell for every author kind, viewer kind and surface', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...SURFACES].sort());
    for (const surface of SURFACES) expect(Object.keys(EXPECTED[surface]).sort()).toEqual([...VIEWER_KINDS].sort());
  });

  it('every cell matches the expected visibility (mismatched cells 0 of N)', async () => {
    const pairs: Pair[] = AUTHOR_KINDS.flatMap((kind) =>
      VIEWER_KINDS.map((viewerKind) => ({
        author: authors[kind],
        viewerKind,
        viewer: viewerKind === 'self' ? casts[kind].author : casts[kind].viewers[viewerKind],
      })),
    );
    const actual = new Map<string, string>();
    // Pairs side by side, each pair's surfaces one after another: ~16 requests in flight.
    await Promise.all(
      pairs.map(async (pair) => {
        for (const surface of SURFACES) {
          const reading = await PROBES[surface](world, pair);
          const leaks = leaksIn(reading, pair);
          actual.set(cellKey(pair.author.kind, pair.viewerKind, surface), leaks.length ? `${reading.outcome} +leak(${leaks.join(', ')})` : reading.outcome);
        }
      }),
    );

    const { cells, mismatches } = compare(actual);
    const summary = `mismatched cells ${mismatches.length} of ${cells.length}`;
    writeFileSync(REPORT_FILE, JSON.stringify({ run: RUN, summary, mismatched: mismatches.length, cells: cells.length, mismatches, matrix: cells }, null, 2));
    console.info(`visibility matrix: ${summary} (${REPORT_FILE})\n${grid(cells)}`);
    expect(mismatches.length, `${summary}:\n${describeMismatches(mismatches)}`).toBe(0);
  }, 60_000);
});

/** POST /api/sessions as multipart (the only form it takes), with an optional session photo. */
async function logSession(api: Api, author: Account, fields: Record<string, string>, photo?: Buffer): Promise<FeedSession> {
  const answer = await api.multipart(author.token, '/api/sessions', fields, photo ? [{ field: 'sessionPhoto', name: 'session.jpg', type: 'image/jpeg', data: photo }] : []);
  if (answer.status !== 201) throw new Error(`log session: ${answer.status} ${answer.text}`);
  return answer.body as FeedSession;
}
