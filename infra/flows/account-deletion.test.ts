import type {
  Album,
  Challenge,
  ChallengeInvitations,
  Conversation,
  ConversationMessage,
  DmMessage,
  FeedSession,
  Notification,
  Photo,
  Review,
  StoredImageResponse,
  UploadUrlResponse,
} from '@hoptrack/proto';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import { connectBus, createLogger, type Bus } from '@hoptrack/runtime';
import { consumersSettled, eventually, publishEvent } from '@hoptrack/testing';
import { callApi, expectApi, logSessionViaApi, makeFriends, registerUser, waitForMessagingUser, waitForSocialUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countHits, findPersonalData, formatHits, placesOf, storesOf, type Hit } from '@hoptrack/testing/erasure-search';

/**
 * Issue 24, item 5, the proof: an account that lived (friends, a block, a
 * mute, a pin, sessions with photos and others' likes, comments and
 * reactions on them, messages both ways, an album with a processed photo, a
 * review and a helpful vote, a challenge and an invitation, notifications
 * both ways, a profile picture) is deleted through the gateway, and then
 * nothing of the person is left in any store of the stack: every Postgres
 * database, the Redis key space, every JetStream stream of the bus namespace
 * and every S3 object (infra/testing/erasure-search.ts). The other people's
 * own data stays. A replayed user.deleted.v1 changes nothing of that.
 */
let stack: Stack;
const TIMELINES_REDIS = (() => {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = '/7';
  return url.toString();
})();
beforeAll(async () => {
  // The timelines in a Redis of their own, as compose runs them (here another database of the same
  // server): the search covers it, so a timeline left naming the person is found there.
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000', TIMELINE_REDIS_URL: TIMELINES_REDIS } });
});
afterAll(async () => {
  await stack?.stop();
});

/** How long the erasure (every service's part, then auth's scrub) may take to leave no trace. */
const ERASURE_BOUND_MS = 120_000;
const NONE = formatHits([]);

const api = (user: RegisteredUser, method: string, path: string, body?: unknown, expected?: number) => expectApi(stack.baseUrl, user.token, method, path, body, expected);
const status = async (token: string, method: string, path: string, body?: unknown) => (await callApi(stack.baseUrl, token, method, path, body)).status;
const jpeg = (color: string) => sharp({ create: { width: 48, height: 36, channels: 3, background: color } }).jpeg().toBuffer();

/** An album of `owner` with one photo, waited for until the thumbnail worker has processed it. */
async function albumWithPhoto(owner: RegisteredUser, name: string): Promise<{ album: Album; photo: Photo }> {
  const album = (await api(owner, 'POST', '/api/albums', { name, description: `${name} description` }, 201)) as Album;
  const form = new FormData();
  form.append('photos', new Blob([new Uint8Array(await jpeg('#a63'))], { type: 'image/jpeg' }), `${name}.jpg`);
  form.append('description', `${name} photo`);
  const res = await fetch(`${stack.baseUrl}/api/albums/${album.id}/photos`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  const [stored] = (await res.json()) as Photo[];
  if (!stored) throw new Error('no photo stored');
  let photo = stored;
  await eventually(
    async () => {
      const photos = (await api(owner, 'GET', `/api/albums/${album.id}/photos`)) as Photo[];
      photo = photos.find((p) => p.id === stored.id) ?? photo;
      return photo.status === 'ready';
    },
    `${name}: photo processed by the thumbnail worker`,
  );
  return { album, photo };
}

/** POST /api/profile-picture/upload, the bytes PUT on the link, then PUT /api/me/profile-picture (as the profile-picture flow does). */
async function setProfilePicture(user: RegisteredUser): Promise<string> {
  const { uploadURL } = (await api(user, 'POST', '/api/profile-picture/upload')) as UploadUrlResponse;
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c8811a' } }).png().toBuffer();
  const put = await fetch(new URL(uploadURL, stack.baseUrl), { method: 'PUT', body: new Uint8Array(png), headers: { 'content-type': 'image/png' } });
  expect(put.status).toBe(200);
  const stored = (await put.json()) as StoredImageResponse;
  await api(user, 'PUT', '/api/me/profile-picture', { profilePictureUrl: new URL(uploadURL, stack.baseUrl).pathname }, 200);
  return stored.url;
}

/** Searches until nothing is found or the bound passes; answers the last search's hits and how long it took. */
async function untilErased(needles: string[], boundMs = ERASURE_BOUND_MS): Promise<{ hits: Hit[]; ms: number; searches: number }> {
  const started = Date.now();
  let hits: Hit[] = [];
  let searches = 0;
  for (;;) {
    hits = await findPersonalData(stack, needles);
    searches += 1;
    if (hits.length === 0 || Date.now() - started > boundMs) break;
    // The polling interval of a condition (as expect.poll's), not a guess at how long the erasure takes.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { hits, ms: Date.now() - started, searches };
}

/** A connection to the stack's bus (its namespace), closed after `use`. */
async function withBus<T>(use: (bus: Bus) => Promise<T>): Promise<T> {
  const { namespace, natsUrl } = storesOf(stack);
  const bus = await connectBus({ url: natsUrl, name: 'erasure-test', namespace, logger: createLogger('erasure-test', 'silent') });
  try {
    return await use(bus);
  } finally {
    await bus.close();
  }
}

/** Every durable consumer of every stream of the stack, optionally of one stream only. */
async function durablesOf(bus: Bus, only?: StreamName): Promise<Array<{ stream: StreamName; durable: string }>> {
  const durables: Array<{ stream: StreamName; durable: string }> = [];
  for (const stream of only ? [only] : (Object.keys(streams) as StreamName[])) {
    try {
      for await (const info of bus.jsm.consumers.list(streamNameFor(bus.namespace, stream))) {
        if (info.config.durable_name) durables.push({ stream, durable: info.config.durable_name });
      }
    } catch (err) {
      if (!/not found/i.test(String((err as Error).message))) throw err;
    }
  }
  return durables;
}

/**
 * The bus is quiet: every durable of every stream has handled (and acknowledged) all it holds.
 * After that, nothing already published can still bring data back; a search then is final.
 */
const quietBus = () => withBus(async (bus) => consumersSettled(bus, await durablesOf(bus)));

const summary = (hits: Hit[]) =>
  Object.entries(countHits(hits))
    .map(([store, c]) => `${store} ${c.hits} in ${c.places}`)
    .join(', ');

interface World {
  dora: RegisteredUser;
  eli: RegisteredUser;
  fay: RegisteredUser;
  gus: RegisteredUser;
  doraSessions: FeedSession[];
  eliSession: FeedSession;
  faySessions: FeedSession[];
  eliAlbum: Album;
  eliPhoto: Photo;
  doraAlbum: Album;
  eliReview: Review;
  barIds: string[];
  conversationId: string;
  eliMessages: string[];
  challengeId: string;
  /** Dora's files as they were served: her profile picture, her session photo as Eli was shown it, her album photo. */
  doraFiles: string[];
}

describe('account deletion (issue 24) through the gateway: nothing of the person is left, everyone else keeps theirs', () => {
  let w: World | undefined;
  let needles: string[] = [];
  let deleted = false;
  const figures: string[] = [];

  it('builds a lived-in account for Dora, with Eli and Fay around her', { timeout: 240_000 }, async () => {
    const [dora, eli, fay, gus] = await Promise.all(['dora', 'eli', 'fay', 'gus'].map((label) => registerUser(stack.baseUrl, label)));
    if (!dora || !eli || !fay || !gus) throw new Error('registration failed');
    needles = [dora.id, dora.email, dora.username];

    // Friends: Dora–Eli, Dora–Fay. Dora pins Eli, mutes Fay, blocks Gus (a stranger).
    await makeFriends(stack.baseUrl, dora, eli);
    await makeFriends(stack.baseUrl, fay, dora);
    await api(dora, 'POST', `/api/friends/${eli.id}/pin`, { order: 0 });
    await api(dora, 'POST', `/api/friends/${fay.id}/mute`, {});
    await waitForSocialUser(stack.baseUrl, dora, gus);
    await api(dora, 'POST', `/api/friends/${gus.id}/block`, { reason: 'spam' });

    // A profile picture and a bio.
    const pictureUrl = await setProfilePicture(dora);
    await api(dora, 'PATCH', '/api/me', { bio: `Dora's bio, ${dora.username}` }, 200);

    // Sessions: Dora's two (one with two photos), Eli's one, Fay's two.
    const doraSessions = [
      await logSessionViaApi(stack.baseUrl, dora, { title: 'Dora at the taproom', description: 'IPA flight', location: 'Taproom', beerCount: '3', duration: '120' }, {
        name: 'dora.jpg',
        mimeType: 'image/jpeg',
        buffer: await jpeg('#d41'),
      }),
      await logSessionViaApi(stack.baseUrl, dora, { title: 'Dora at home', beerCount: '1', duration: '30' }),
    ];
    const eliSession = await logSessionViaApi(stack.baseUrl, eli, { title: 'Eli on the terrace', beerCount: '2', duration: '60' }, {
      name: 'eli.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg('#1a4'),
    });
    const faySessions = [
      await logSessionViaApi(stack.baseUrl, fay, { title: 'Fay one', beerCount: '1', duration: '45' }),
      await logSessionViaApi(stack.baseUrl, fay, { title: 'Fay two', beerCount: '2', duration: '50' }),
    ];

    // Eli likes, comments on and reacts to Dora's session; Dora does the same on Eli's; Fay too on both (so counts can be checked after).
    const doraFirst = doraSessions[0] as FeedSession;
    await eventually(async () => (await status(eli.token, 'POST', `/api/sessions/${doraFirst.id}/like`)) === 200, "Eli can like Dora's session");
    await api(eli, 'POST', `/api/sessions/${doraFirst.id}/comments`, { content: 'Nice flight, Dora!' }, 201);
    await api(eli, 'POST', `/api/sessions/${doraFirst.id}/react`, { emoji: '🍻' }, 201);
    await eventually(async () => (await status(dora.token, 'POST', `/api/sessions/${eliSession.id}/like`)) === 200, "Dora can like Eli's session");
    await api(dora, 'POST', `/api/sessions/${eliSession.id}/comments`, { content: `Cheers Eli, from ${dora.username}` }, 201);
    await api(dora, 'POST', `/api/sessions/${eliSession.id}/react`, { emoji: '🍺' }, 201);
    await api(dora, 'POST', `/api/sessions/${eliSession.id}/react`, { emoji: '🔥' }, 201);
    await eventually(async () => (await status(fay.token, 'POST', `/api/sessions/${eliSession.id}/like`)) === 200, "Fay can like Eli's session");
    await api(fay, 'POST', `/api/sessions/${eliSession.id}/comments`, { content: 'Fay says hi' }, 201);
    await api(fay, 'POST', `/api/sessions/${eliSession.id}/react`, { emoji: '🍺' }, 201);
    await api(dora, 'POST', `/api/sessions/${faySessions[0]?.id}/like`, undefined, 200);

    // Direct messages both ways, in the conversation and the thread API.
    await waitForMessagingUser(stack.baseUrl, dora, eli);
    await waitForMessagingUser(stack.baseUrl, eli, dora);
    const first = (await api(dora, 'POST', '/api/messages', { toUserId: eli.id, content: `Hi Eli, it is ${dora.username}` }, 201)) as DmMessage;
    const eliReply = (await api(eli, 'POST', '/api/messages', { toUserId: dora.id, content: 'Hi Dora, Eli here' }, 201)) as DmMessage;
    const conversation = (await api(eli, 'POST', '/api/conversations', { participantId: dora.id })) as Conversation;
    const eliSecond = (await api(eli, 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Eli again' }, 201)) as ConversationMessage;
    await api(dora, 'POST', `/api/conversations/${conversation.id}/messages`, { content: 'Dora again' }, 201);
    await api(eli, 'PUT', `/api/messages/${first.id}/read`, undefined, 200);

    // Albums with a processed photo each: Dora's and Eli's.
    const { album: doraAlbum, photo: doraPhoto } = await albumWithPhoto(dora, 'Dora album');
    const { album: eliAlbum, photo: eliPhoto } = await albumWithPhoto(eli, 'Eli album');

    // Reviews: Dora reviews a bar, Eli another; Dora marks Eli's helpful, Eli marks Dora's.
    const bars = (await api(dora, 'GET', '/api/bars?limit=2')) as Array<{ id: string }>;
    const barIds = bars.map((b) => b.id);
    if (barIds.length < 2) throw new Error(`the catalogue has fewer than two bars: ${JSON.stringify(bars)}`);
    const doraReview = (await api(dora, 'POST', `/api/bars/${barIds[0]}/reviews`, { rating: 5, reviewText: `Dora loved it (${dora.email})` }, 201)) as Review;
    const eliReview = (await api(eli, 'POST', `/api/bars/${barIds[1]}/reviews`, { rating: 4, reviewText: 'Eli liked it' }, 201)) as Review;
    await api(dora, 'POST', `/api/bars/${barIds[1]}/reviews/${eliReview.id}/helpful`, { isHelpful: true }, 201);
    await api(eli, 'POST', `/api/bars/${barIds[0]}/reviews/${doraReview.id}/helpful`, { isHelpful: true }, 201);

    // Today's challenge: Dora joins one and invites Eli (the challenges service learns of the friendship by events).
    const today = (await api(dora, 'GET', '/api/challenges?timeZone=UTC')) as Challenge[];
    const challenge = today[0];
    if (!challenge) throw new Error('no challenge today');
    await api(dora, 'POST', `/api/challenges/${challenge.id}/join`, { timeZone: 'UTC' }, 200);
    await eventually(
      async () => (await status(dora.token, 'POST', `/api/challenges/${challenge.id}/invitations?timeZone=UTC`, { friendId: eli.id })) === 201,
      'Dora can invite Eli',
    );
    const invitations = (await api(eli, 'GET', '/api/challenge-invitations')) as ChallengeInvitations;
    expect(invitations.received.map((i) => i.from.id)).toContain(dora.id);

    // Notifications both ways: Dora's from Eli (like, comment, reaction, friendship), Eli's from Dora.
    const inbox = async (user: RegisteredUser) => (await api(user, 'GET', '/api/notifications')) as Notification[];
    await expect.poll(async () => (await inbox(dora)).some((n) => n.actors.some((a) => a.id === eli.id))).toBe(true);
    await expect.poll(async () => (await inbox(eli)).some((n) => n.actors.some((a) => a.id === dora.id))).toBe(true);
    await expect.poll(async () => (await inbox(eli)).some((n) => n.target.type === 'challenge')).toBe(true);

    // The fan-out put Dora's session on Eli's timeline (Redis) and the card cache holds it.
    await expect.poll(async () => JSON.stringify(await api(eli, 'GET', '/api/sessions?filter=all'))).toContain(doraFirst.id);
    const doraSessionAsEliSees = (await api(eli, 'GET', `/api/sessions/${doraFirst.id}`)) as FeedSession;
    const doraFiles = [pictureUrl, ...doraSessionAsEliSees.photos, doraPhoto.url, doraPhoto.thumbnailUrl].filter((u): u is string => !!u);
    for (const url of doraFiles) expect((await fetch(`${stack.baseUrl}${url}`)).status, url).toBe(200);

    // A copy of her data, ready (its zip in S3): the erasure takes it too.
    const requested = (await api(dora, 'POST', '/api/me/export', undefined, 202)) as { id: string };
    await expect
      .poll(async () => ((await api(dora, 'GET', '/api/me/exports')) as Array<{ id: string; status: string }>).find((e) => e.id === requested.id)?.status, { timeout: 60_000 })
      .toBe('ready');

    w = {
      dora,
      eli,
      fay,
      gus,
      doraSessions,
      eliSession,
      faySessions,
      eliAlbum,
      eliPhoto,
      doraAlbum,
      eliReview,
      barIds,
      conversationId: conversation.id,
      eliMessages: [eliReply.id, eliSecond.id],
      challengeId: challenge.id,
      doraFiles,
    };
  });

  it("finds Dora's id, e-mail and username in many places before the deletion (the search cannot pass vacuously)", { timeout: 120_000 }, async () => {
    if (!w) throw new Error('no world: the set-up failed');
    const started = Date.now();
    const hits = await findPersonalData(stack, needles);
    const ms = Date.now() - started;
    const counts = countHits(hits);
    const databases = new Set(hits.filter((h) => h.store === 'postgres').map((h) => h.place.split('.')[0]));
    const tables = new Set(hits.filter((h) => h.store === 'postgres').map((h) => h.place));
    const byNeedle = Object.fromEntries(needles.map((n, i) => [['id', 'email', 'username'][i], hits.filter((h) => h.needle === n).length]));
    figures.push(
      `before deletion: ${hits.length} hits in ${new Set(hits.map((h) => `${h.store} ${h.place}`)).size} places ` +
        `(postgres ${counts.postgres.hits} in ${tables.size} tables of ${databases.size} databases, redis ${counts.redis.hits} in ${counts.redis.places} keys, ` +
        `jetstream ${counts.jetstream.hits} in ${counts.jetstream.places} messages, kv ${counts.kv.hits}, s3 ${counts.s3.hits} in ${counts.s3.places} objects; ` +
        `by needle ${JSON.stringify(byNeedle)}; one search ${ms} ms)`,
    );
    console.log(`[erasure] places before deletion:\n  ${placesOf(hits).join('\n  ')}`);
    expect(databases.size, formatHits(hits)).toBeGreaterThanOrEqual(6);
    expect(counts.redis.hits, formatHits(hits)).toBeGreaterThan(0);
    // Eli's timeline, in the timelines' own Redis, names Dora's session's author.
    expect(hits.some((h) => h.store === 'redis' && h.place.startsWith(`${TIMELINES_REDIS} `)), formatHits(hits)).toBe(true);
    expect(counts.jetstream.hits, formatHits(hits)).toBeGreaterThan(0);
    expect(counts.s3.hits, formatHits(hits)).toBeGreaterThan(0);
    // Each needle is found on its own: the e-mail and the username, not only the id.
    for (const needle of needles) expect(hits.some((h) => h.needle === needle), needle).toBe(true);
  });

  it('DELETE /api/me: at once her token is refused by every service, her profile is gone, search forgets her, login fails', { timeout: 120_000 }, async () => {
    if (!w) throw new Error('no world: the set-up failed');
    const { dora, eli } = w;
    // The confirmation and the password are checked first.
    expect(await status(dora.token, 'DELETE', '/api/me', { password: dora.password, confirm: 'delete' })).toBe(400);
    expect(await status(dora.token, 'DELETE', '/api/me', { password: 'not-her-password', confirm: 'DELETE' })).not.toBeLessThan(400);
    const answer = await callApi(stack.baseUrl, dora.token, 'DELETE', '/api/me', { password: dora.password, confirm: 'DELETE' });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    deleted = true;

    // At once, with no waiting: one authenticated route of every service.
    const routes: Array<[service: string, method: string, path: string]> = [
      ['auth', 'GET', '/api/me'],
      ['social-graph', 'GET', '/api/friends'],
      ['sessions', 'GET', '/api/sessions'],
      ['sessions', 'GET', '/api/me/sessions'],
      ['messaging', 'GET', '/api/conversations'],
      ['media', 'GET', '/api/albums'],
      ['places', 'GET', `/api/bars/${w.barIds[0]}/reviews`],
      ['notifications', 'GET', '/api/notifications'],
      ['challenges', 'GET', '/api/challenges'],
    ];
    const atOnce = await Promise.all(routes.map(async ([service, method, path]) => `${service} ${method} ${path} ${await status(dora.token, method, path)}`));
    expect.soft(atOnce, 'at once after the deletion').toEqual(routes.map(([service, method, path]) => `${service} ${method} ${path} 401`));
    // Whatever answered at once, every service refuses her token soon after.
    for (const [service, method, path] of routes) await expect.poll(() => status(dora.token, method, path), { message: `${service} ${path}` }).toBe(401);

    // Eli: her profile answers 404, by id and by username; search finds her by neither.
    expect(await status(eli.token, 'GET', `/api/users/${dora.id}`)).toBe(404);
    expect(await status(eli.token, 'GET', `/api/users/profile/${dora.username}`)).toBe(404);
    expect((await api(eli, 'GET', `/api/users/search?q=${encodeURIComponent(dora.username)}`)) as unknown[]).toEqual([]);
    expect(JSON.stringify(await api(eli, 'GET', `/api/users/search?q=${encodeURIComponent('Dora')}`))).not.toContain(dora.id);

    // Signing in with her e-mail and password fails like any unknown account.
    const login = await fetch(`${stack.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: dora.email, password: dora.password }),
    });
    expect(login.status).toBe(401);
  });

  it('then the erasure leaves no trace of her id, e-mail or username in any store', { timeout: ERASURE_BOUND_MS + 60_000 }, async () => {
    if (!w || !deleted) throw new Error('the account was not deleted');
    const { hits, ms, searches } = await untilErased(needles);
    figures.push(`after deletion: ${hits.length} hits (${summary(hits)}) ${hits.length === 0 ? `after ${ms} ms` : `still after ${ms} ms`} (${searches} searches)`);
    // Not a store, and not asserted: how many lines the processes logged name her (logs age out on their own schedule).
    const lowered = needles.map((n) => n.toLowerCase());
    const logLines = Object.values(stack.instances)
      .flat()
      .concat(stack.gateway)
      .map((proc) => [proc.name, proc.lines.filter((line) => lowered.some((n) => line.toLowerCase().includes(n))).length] as const)
      .filter(([, n]) => n > 0);
    figures.push(`process log lines naming her (not a store, not asserted): ${logLines.map(([name, n]) => `${name} ${n}`).join(', ') || 'none'}`);
    if (hits.length > 0) console.log(`[erasure] remaining after deletion:\n${formatHits(hits, 10)}`);
    // And it stays so: once every consumer of every stream has handled all the bus holds, nothing brought any of it back.
    if (hits.length === 0) {
      await quietBus();
      const later = await findPersonalData(stack, needles);
      expect.soft(formatHits(later), 'after the bus went quiet').toBe(NONE);
    }
    // Her files, at the URLs they were served from, are gone too.
    for (const url of w.doraFiles) expect.soft((await fetch(`${stack.baseUrl}${url}`)).status, url).toBe(404);
    expect(formatHits(hits)).toBe(NONE);
  });

  /** Eli's, Fay's and Gus's own data, as they see it, with Dora's part taken out. Soft: every difference is reported, not only the first. */
  async function othersIntact(label: string): Promise<void> {
    if (!w) throw new Error('no world: the set-up failed');
    const { dora, eli, fay, gus, eliSession } = w;

    // Eli's session: Fay's like, comment and reaction stay; Dora's are gone.
    const session = (await api(eli, 'GET', `/api/sessions/${eliSession.id}`)) as FeedSession;
    expect.soft({ likes: session.likeCount, comments: session.commentCount }, label).toEqual({ likes: 1, comments: 1 });
    expect.soft(session.likes.map((l) => l.userId), label).toEqual([fay.id]);
    expect.soft(session.comments.map((c) => c.content), label).toEqual(['Fay says hi']);
    expect.soft(session.reactions.map((r) => ({ emoji: r.emoji, count: r.count, users: r.users.map((u) => u.id) })), label).toEqual([{ emoji: '🍺', count: 1, users: [fay.id] }]);
    expect.soft(session.photos, label).toHaveLength(1);
    expect.soft((await fetch(`${stack.baseUrl}${session.photos[0]}`)).status, `${label}: Eli's session photo`).toBe(200);
    expect.soft(JSON.stringify(session), label).not.toContain(dora.id);

    // Dora's sessions are gone; Fay's stay (the like Dora left on one of them too).
    for (const gone of w.doraSessions) expect.soft(await status(eli.token, 'GET', `/api/sessions/${gone.id}`), label).toBe(404);
    const fays = (await api(fay, 'GET', '/api/me/sessions')) as FeedSession[];
    expect.soft(fays.map((s) => s.id).sort(), label).toEqual(w.faySessions.map((s) => s.id).sort());
    expect.soft(fays.map((s) => s.likeCount), label).toEqual([0, 0]);
    const eliFeed = JSON.stringify(await api(eli, 'GET', '/api/sessions?filter=all'));
    expect.soft(eliFeed, label).toContain(eliSession.id);
    expect.soft(eliFeed, label).not.toContain(dora.id);

    // Eli's messages stay in the conversation; Dora's are gone.
    const conversations = (await api(eli, 'GET', '/api/conversations')) as Conversation[];
    const messages = (await api(eli, 'GET', `/api/conversations/${w.conversationId}/messages`)) as ConversationMessage[];
    const threads = await api(eli, 'GET', '/api/messages');
    console.log(`[erasure] ${label}: Eli's conversations ${JSON.stringify(conversations)}; messages ${JSON.stringify(messages)}; threads ${JSON.stringify(threads)}`);
    expect.soft(messages.map((m) => m.id).sort(), label).toEqual([...w.eliMessages].sort());
    expect.soft(messages.map((m) => m.content), label).toEqual(['Hi Dora, Eli here', 'Eli again']);
    expect.soft(conversations.map((c) => c.id), label).toContain(w.conversationId);
    // The other side is shown as a deleted user, in the conversation and the thread list alike.
    const other = conversations.find((c) => c.id === w?.conversationId);
    expect.soft([other?.participant1, other?.participant2].filter((p) => p?.id !== eli.id).map((p) => p?.displayName), label).toEqual(['Deleted user']);
    expect.soft((threads as Array<{ id: string; otherUserDisplayName: string }>).filter((t) => t.id === w?.conversationId).map((t) => t.otherUserDisplayName), label).toEqual([
      'Deleted user',
    ]);
    expect.soft(JSON.stringify(conversations) + JSON.stringify(messages) + JSON.stringify(threads), label).not.toContain(dora.id);

    // Eli's album and its photo, served.
    const albums = (await api(eli, 'GET', '/api/albums')) as Album[];
    expect.soft(albums.map((a) => ({ id: a.id, photoCount: a.photoCount })), label).toEqual([{ id: w.eliAlbum.id, photoCount: 1 }]);
    const photos = (await api(eli, 'GET', `/api/albums/${w.eliAlbum.id}/photos`)) as Photo[];
    expect.soft(photos.map((p) => ({ id: p.id, status: p.status })), label).toEqual([{ id: w.eliPhoto.id, status: 'ready' }]);
    for (const url of [photos[0]?.url, photos[0]?.thumbnailUrl]) expect.soft((await fetch(`${stack.baseUrl}${url}`)).status, `${label}: ${url}`).toBe(200);
    expect.soft(await status(eli.token, 'GET', `/api/albums/${w.doraAlbum.id}/photos`), label).toBe(404);

    // Eli's review stays, without Dora's helpful vote; Dora's review is gone.
    const eliReviews = (await api(eli, 'GET', `/api/bars/${w.barIds[1]}/reviews`)) as Review[];
    expect.soft(eliReviews.filter((r) => r.id === w?.eliReview.id).map((r) => r.helpfulCount), label).toEqual([0]);
    expect.soft(JSON.stringify(await api(eli, 'GET', `/api/bars/${w.barIds[0]}/reviews`)), label).not.toContain(dora.id);

    // Friends, invitations and notifications: Eli and Fay keep their accounts, with nothing of Dora.
    expect.soft(JSON.stringify(await api(eli, 'GET', '/api/friends')), label).not.toContain(dora.id);
    expect.soft(JSON.stringify(await api(fay, 'GET', '/api/friends')), label).not.toContain(dora.id);
    expect.soft(JSON.stringify(await api(eli, 'GET', '/api/challenge-invitations')), label).not.toContain(dora.id);
    expect.soft(JSON.stringify(await api(eli, 'GET', '/api/notifications')), label).not.toContain(dora.id);
    expect.soft(JSON.stringify(await api(gus, 'GET', '/api/me')), label).toContain(gus.id);
    expect.soft(await status(eli.token, 'GET', `/api/challenges/${w.challengeId}?timeZone=UTC`), label).toBe(200);
  }

  it("leaves Eli's, Fay's and Gus's own data as it was, less Dora's part", { timeout: 120_000 }, async () => {
    if (!deleted) throw new Error('the account was not deleted');
    await othersIntact('after deletion');
    // Reading around her (her sessions, her album, her reviews' bars, the conversation) filled no cache with anything of hers.
    await quietBus();
    expect(formatHits(await findPersonalData(stack, needles)), 'after the others read').toBe(NONE);
    // The control: the same search still finds Eli in every kind of store, so its zero for Dora is not a blind spot.
    const eli = countHits(await findPersonalData(stack, [w?.eli.id ?? '']));
    figures.push(`control, Eli's id after the deletion: ${Object.entries(eli).map(([store, c]) => `${store} ${c.hits} in ${c.places}`).join(', ')}`);
    for (const store of ['postgres', 'redis', 'jetstream', 's3'] as const) expect.soft(eli[store].hits, `Eli's id in ${store}`).toBeGreaterThan(0);
  });

  it('a replayed user.deleted.v1 (a new envelope) erases nothing more and leaves no trace either', { timeout: ERASURE_BOUND_MS + 60_000 }, async () => {
    if (!w || !deleted) throw new Error('the account was not deleted');
    const userId = w.dora.id;
    await withBus(async (bus) => {
      const replay = await publishEvent(bus, 'user.deleted.v1', { userId });
      // Settled: every durable on the USERS stream has handled the replay (nothing pending, nothing unacknowledged).
      const durables = await durablesOf(bus, 'USERS');
      expect(durables.length).toBeGreaterThan(0);
      await consumersSettled(bus, durables);
      // Then the scrub: the replayed event names her too, and must go like the first.
      const { hits, ms, searches } = await untilErased(needles);
      figures.push(`after replay ${replay.id}: ${hits.length} hits (${summary(hits)}) ${hits.length === 0 ? `after ${ms} ms` : `still after ${ms} ms`} (${searches} searches; ${durables.length} USERS durables settled)`);
      if (hits.length > 0) console.log(`[erasure] remaining after the replay:\n${formatHits(hits, 10)}`);
      await othersIntact('after the replay');
      expect(formatHits(hits)).toBe(NONE);
    });
    await quietBus();
    expect(formatHits(await findPersonalData(stack, needles)), 'after the replay, once the bus went quiet').toBe(NONE);
  });

  it('a sign-in and a reset request with her address after the erasure leave nothing that names her either', { timeout: 60_000 }, async () => {
    if (!w || !deleted) throw new Error('the account was not deleted');
    const post = (path: string, body: unknown) =>
      fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/auth/login', { email: w.dora.email, password: w.dora.password })).status).toBe(401);
    expect((await post('/api/auth/forgot-password', { email: w.dora.email })).status).toBeLessThan(300);
    // The rate limits count per address under a hash of it, so their keys do not name it.
    const left = await findPersonalData(stack, needles);
    figures.push(`after a sign-in and a reset request with her address: ${left.length} hits (${placesOf(left).join(', ') || 'none'})`);
    expect(formatHits(left)).toBe(NONE);
  });

  afterAll(() => {
    console.log(`[figure] erasure: ${figures.join('; ')}`);
  });
});
