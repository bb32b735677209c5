import type {
  Album,
  Challenge,
  ChallengeInvitations,
  Conversation,
  ConversationMessage,
  Device,
  DmMessage,
  FeedSession,
  Friend,
  Friendship,
  Photo,
  Review,
  SessionComment,
  UnreadSummary,
} from '@hoptrack/proto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApi,
  logSessionViaApi,
  makeFriends,
  registerUser,
  waitForMessagingUser,
  waitForSocialUser,
  type RegisteredUser,
} from '@hoptrack/testing/api';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { fillPath as fillTemplate, paramsOf } from '@hoptrack/proto';
import { apiRoutes, tableRoutes, VERBS, type TableRoute, type Verb } from './contract-table';

/**
 * Issue 9, item 11: the access-control matrix. Every /api route whose path
 * takes a parameter is read from the contract table (contract-table.ts), sorted
 * by the kind of object it addresses, filled with the ids of objects user A
 * owns, and called through the real gateway, with every verb, by B (a
 * stranger with a valid token) and by E (someone A blocked). Each answer must
 * refuse (403/404; 404/405 where no such route exists) and its body must hold
 * none of A's private texts, A's e-mail, nor ids of A's objects other than the
 * ones in the path. What the product allows strangers on purpose is in ALLOWED,
 * with the reason; what addresses no object of A's is in EXCLUDED, with the
 * reason. A route in neither fails the test, so a new route must be thought
 * about. The figure 'leaking endpoints X of N' is printed and written to
 * <tmpdir>/hoptrack-security/access-matrix.json.
 */

// ---------------------------------------------------------------- the scan

/** Routed contracts (the gateway routes /api only) with at least one path parameter. */
const idRoutes = apiRoutes().filter((r) => paramsOf(r.template).length > 0);
const templates = [...new Set(idRoutes.map((r) => r.template))].sort();
const registered = new Set(idRoutes.map((r) => `${r.method} ${r.template}`));

// ---------------------------------------------------------------- the fixture

/** Every text A writes carries its own marker; all share one prefix. */
const MARKER_NAMES = [
  'bio',
  'sessionTitle',
  'sessionDescription',
  'sessionLocation',
  'comment',
  'albumName',
  'albumDescription',
  'photoName',
  'photoDescription',
  'messageToC',
  'dmToC',
  'replyFromC',
  'review',
] as const;
type MarkerName = (typeof MARKER_NAMES)[number];

interface Fixture {
  a: RegisteredUser;
  /** A stranger: no relation to A. */
  b: RegisteredUser;
  /** A's pending friend request goes to C; A and C have a conversation. */
  c: RegisteredUser;
  /** A's friend. */
  d: RegisteredUser;
  /** Blocked by A. */
  e: RegisteredUser;
  prefix: string;
  markers: Record<MarkerName, string>;
  barId: string;
  sessionId: string;
  commentId: string;
  likeId: string;
  albumId: string;
  photoId: string;
  /** The album photo's stored objects (keys under /api/media/files/). */
  photoKeys: { thumbnail: string; display: string; original: string };
  /** The signed URLs A was handed (the owner's positive control for the file route). */
  signedPhotoUrls: string[];
  conversationId: string;
  messageIds: { toC: string; dmToC: string; fromC: string };
  friendshipIds: { pendingToC: string; acceptedWithD: string };
  reviewId: string;
  /** Two of today's challenges (the same for everyone): the one A invited D to, and the one D invited A to. */
  challengeIds: { invitedD: string; invitedByD: string };
  /** A's challenge invitations: the one A sent D and the one A received from D. */
  invitationIds: { toD: string; fromD: string };
  /** A's data export (issue 24). */
  exportId: string;
  /** One of A's notifications (D's challenge invitation; issue 40). */
  notificationId: string;
  /** Where A is signed in: the sign-in of A's token (issue 40). */
  deviceId: string;
}

type Fill = Record<string, string>;
type Kind =
  | 'session'
  | 'session-list'
  | 'comment'
  | 'reaction'
  | 'like'
  | 'album'
  | 'photo'
  | 'photo-file'
  | 'conversation'
  | 'message'
  | 'friendship'
  | 'review'
  | 'challenge-list'
  | 'invitation'
  | 'export'
  | 'notification'
  | 'device';

/**
 * Templates by the object their parameters address: the first rule whose
 * prefix is the template or a whole-segment prefix of it wins, and gives the
 * values of A's objects to put in (several fills = several cells).
 */
const CLASSIFIED: Array<{ prefix: string; kind: Kind; fill: (fx: Fixture) => Fill[] }> = [
  { prefix: '/api/sessions/:id/comments/:commentId', kind: 'comment', fill: (fx) => [{ id: fx.sessionId, commentId: fx.commentId }] },
  { prefix: '/api/sessions/:id/comments', kind: 'comment', fill: (fx) => [{ id: fx.sessionId }] },
  { prefix: '/api/sessions/:id/reactions', kind: 'reaction', fill: (fx) => [{ id: fx.sessionId }] },
  { prefix: '/api/sessions/:id/react', kind: 'reaction', fill: (fx) => [{ id: fx.sessionId }] },
  { prefix: '/api/sessions/:id/like', kind: 'like', fill: (fx) => [{ id: fx.sessionId }] },
  { prefix: '/api/sessions/:id', kind: 'session', fill: (fx) => [{ id: fx.sessionId }] },
  // A's sessions addressed by A's user id: a private profile lists them to friends only.
  { prefix: '/api/users/:id/sessions', kind: 'session-list', fill: (fx) => [{ id: fx.a.id }] },
  // A's session photos addressed by A's user id (issue 40): the sessions list's rule, a private profile's to friends only.
  { prefix: '/api/users/:id/session-photos', kind: 'session-list', fill: (fx) => [{ id: fx.a.id }] },
  // A's completed challenges addressed by A's user id: a private profile lists them to friends only.
  { prefix: '/api/users/:id/challenges', kind: 'challenge-list', fill: (fx) => [{ id: fx.a.id }] },
  { prefix: '/api/albums/:id', kind: 'album', fill: (fx) => [{ id: fx.albumId }] },
  { prefix: '/api/photos/:id', kind: 'photo', fill: (fx) => [{ id: fx.photoId }] },
  // Album images without a signature (the key is guessable from A's id and the photo id): never served.
  {
    prefix: '/api/media/files/*',
    kind: 'photo-file',
    fill: (fx) => [{ '*': fx.photoKeys.thumbnail }, { '*': fx.photoKeys.display }, { '*': fx.photoKeys.original }],
  },
  { prefix: '/api/conversations/:id', kind: 'conversation', fill: (fx) => [{ id: fx.conversationId }] },
  {
    prefix: '/api/messages/:id',
    kind: 'message',
    // A message A sent (C is its recipient) and one A received.
    fill: (fx) => [{ id: fx.messageIds.toC }, { id: fx.messageIds.fromC }],
  },
  {
    prefix: '/api/friendships/:id',
    kind: 'friendship',
    fill: (fx) => [{ id: fx.friendshipIds.pendingToC }, { id: fx.friendshipIds.acceptedWithD }],
  },
  { prefix: '/api/bars/:id/reviews/:reviewId', kind: 'review', fill: (fx) => [{ id: fx.barId, reviewId: fx.reviewId }] },
  { prefix: '/api/bars/:id/reviews', kind: 'review', fill: (fx) => [{ id: fx.barId }] },
  {
    prefix: '/api/challenge-invitations/:id',
    kind: 'invitation',
    // The invitation A sent (D is its recipient) and the one A received from D.
    fill: (fx) => [{ id: fx.invitationIds.toD }, { id: fx.invitationIds.fromD }],
  },
  // A's data export: its id in another person's /api/me/export/:id.
  { prefix: '/api/me/export/:id', kind: 'export', fill: (fx) => [{ id: fx.exportId }] },
  // One of A's notifications: its id in another person's /api/notifications/:id/unread (issue 40).
  { prefix: '/api/notifications/:id', kind: 'notification', fill: (fx) => [{ id: fx.notificationId }] },
  // A's sign-in: its id in another person's DELETE /api/me/devices/:id (which would sign A out).
  { prefix: '/api/me/devices/:id', kind: 'device', fill: (fx) => [{ id: fx.deviceId }] },
];

/**
 * Templates that address nothing A owns, with the reason. Exact templates, not
 * prefixes: a new route under one of these paths must be classified or listed.
 * `probe`: the GET answers B and E get with these values are still read for
 * A's private data (whatever the status), `exposes` naming what is public there.
 */
const EXCLUDED: Record<string, { reason: string; probe?: (fx: Fixture) => Fill[]; exposes?: Exposure[] }> = {
  '/api/auth/verify-reset-token/:token': { reason: 'a password-reset capability, not an object id; only the mailbox owner holds it' },
  '/api/media/uploads/:token': { reason: 'a signed upload capability (HMAC, one user, 10 minutes), not an object id; covered by the media tests' },
  '/api/bars/:id': {
    reason: 'the bar catalogue is public to signed-in users; the detail carries the bar reviews, public by design',
    probe: (fx) => [{ id: fx.barId }],
    exposes: ['review'],
  },
  '/api/beers/:id': { reason: 'the beer catalogue is public to signed-in users' },
  '/api/moderation/staff/:userId': {
    reason: "an admin's change of someone's roles (issue 42): B and E hold no role and are refused before anything is read (403); staff-roles.test.ts sweeps every staff route",
  },
  '/api/users/profile/:username': {
    reason: "a user's profile by username: name, username and picture are public by design (private details: visibility matrix)",
    probe: (fx) => [{ username: fx.a.username }],
  },
  '/api/users/:id': { reason: "a user's profile by user id (public card; private details: visibility matrix)", probe: (fx) => [{ id: fx.a.id }] },
  '/api/users/:id/stats': { reason: "a user's stats by user id (private profile: 403; visibility matrix)", probe: (fx) => [{ id: fx.a.id }] },
  '/api/users/:id/followers': { reason: "a user's followers by user id (private profile: 403; visibility matrix)", probe: (fx) => [{ id: fx.a.id }] },
  '/api/users/:id/following': { reason: "a user's following by user id (private profile: 403; visibility matrix)", probe: (fx) => [{ id: fx.a.id }] },
  '/api/messages/:otherUserId': {
    reason: "the viewer's own thread with the user :otherUserId (empty for strangers), not A's conversation",
    probe: (fx) => [{ otherUserId: fx.a.id }, { otherUserId: fx.c.id }],
  },
  '/api/friends/:id': { reason: "unfriend: the viewer's own friendship with user :id" },
  '/api/friends/:id/block': { reason: "the viewer's own block of user :id" },
  '/api/friends/:id/mute': { reason: "the viewer's own mute of friend :id" },
  '/api/friends/:id/pin': { reason: "the viewer's own pin of friend :id" },
  '/api/challenges/:id': {
    reason: "a daily challenge is the same for everyone (the day's catalogue); its page shows the viewer's own progress and the viewer's own friends in it",
    probe: (fx) => [{ id: fx.challengeIds.invitedD }, { id: fx.challengeIds.invitedByD }],
  },
  '/api/challenges/:id/join': { reason: 'the viewer joins a daily challenge (the same for everyone) themselves' },
  '/api/challenges/:id/invitations': { reason: "the viewer invites a friend of the viewer's own to a daily challenge; only friends can be invited" },
};

/** What an allowed cell may show: a public object of A's, its text and its id. */
type Exposure = 'review';
const exposureOf = (fx: Fixture, exposure: Exposure) => ({ review: { markers: ['review'] as MarkerName[], ids: [fx.reviewId] } })[exposure];

type Viewer = 'stranger' | 'blocked';

/** Cells the product allows on purpose, per viewer, with the statuses expected and what may show. */
const ALLOWED: Array<{ viewer: Viewer; cell: string; status: number[]; exposes: Exposure[]; reason: string }> = [
  {
    viewer: 'stranger',
    cell: 'GET /api/bars/:id/reviews',
    status: [200],
    exposes: ['review'],
    reason: "reviews are public on the bar's page, a private profile's too (docs/decisions.md, Places: 'something its author published about a place')",
  },
  {
    viewer: 'stranger',
    cell: 'POST /api/bars/:id/reviews/:reviewId/helpful',
    status: [201],
    exposes: ['review'],
    reason: 'anyone who sees a review may vote it helpful (one vote); the answer is the public review',
  },
  {
    viewer: 'stranger',
    cell: 'POST /api/bars/:id/reviews',
    status: [201],
    exposes: [],
    reason: "B writes B's own review of the bar A reviewed; A's review is not touched",
  },
  {
    viewer: 'blocked',
    cell: 'GET /api/bars/:id/reviews',
    status: [200],
    exposes: [],
    reason: "the bar's list is readable, but a block hides A's review from it (must not show: no exposure)",
  },
  {
    viewer: 'blocked',
    cell: 'POST /api/bars/:id/reviews',
    status: [201],
    exposes: [],
    reason: "E writes E's own review of the bar; blocks do not stop reviewing a bar",
  },
];

// ---------------------------------------------------------------- bodies

type Body = { json: unknown } | { form: (fx: Fixture) => Promise<FormData> } | undefined;

/** A small, really encoded JPEG (the servers decode every image). */
const jpeg = () => sharp({ create: { width: 48, height: 32, channels: 3, background: '#c58a2c' } }).jpeg().toBuffer();

/**
 * Valid bodies for the registered routes that validate one before checking
 * ownership, so that the ownership check is what answers. Others get `{}`
 * (or nothing for GET). A 400 from a registered route means this table needs
 * an entry: the test fails on it (`validation short-circuits`).
 */
const BODIES: Record<string, Body> = {
  'POST /api/sessions/:id/comments': { json: { content: 'B was here' } },
  'PATCH /api/sessions/:id/comments/:commentId': { json: { content: 'B was here' } },
  'POST /api/sessions/:id/react': { json: { emoji: '🍺' } },
  'DELETE /api/sessions/:id/react': { json: { emoji: '🍺' } },
  'PUT /api/sessions/:id': {
    form: async () => {
      const form = new FormData();
      form.append('title', 'Edited by B');
      form.append('description', 'B was here');
      return form;
    },
  },
  'POST /api/albums/:id/photos': {
    form: async () => {
      const form = new FormData();
      form.append('photos', new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }), 'b.jpg');
      return form;
    },
  },
  'POST /api/conversations/:id/messages': { json: { content: 'B was here' } },
  'PATCH /api/friendships/:id': { json: { action: 'accept' } },
  'POST /api/bars/:id/reviews': { json: { rating: 1, reviewText: 'B was here' } },
  'POST /api/bars/:id/reviews/:reviewId/helpful': { json: { isHelpful: true } },
  'PATCH /api/challenge-invitations/:id': { json: { action: 'accept' } },
};

// ---------------------------------------------------------------- calls

interface Answer {
  status: number;
  text: string;
}

async function call(baseUrl: string, token: string, method: string, urlPath: string, body?: { json: unknown } | { form: FormData }): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: string | FormData | undefined;
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    payload = body.form;
  }
  const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body: payload });
  return { status: res.status, text: await res.text() };
}

// ---------------------------------------------------------------- the checks

interface Cell {
  viewer: Viewer;
  verb: Verb;
  template: string;
  path: string;
  status: number;
  /** A's data in the body, or the call got past the access check (2xx, 409): what 'leaking' counts. */
  leaks: string[];
  /** The cell proves nothing: validation answered first (400), a server error, an allowed cell refused. */
  faults: string[];
}

/** Why a status other than the expected ones is wrong. */
function judgeStatus(status: number, expected: number[], isRoute: boolean, allowed: boolean, text: string): { leak?: string; fault?: string } {
  if (expected.includes(status)) return {};
  const said = `status ${status}, expected ${expected.join('/')}: ${text.slice(0, 300)}`;
  if (allowed) return { fault: `${said} (an allowed cell answers otherwise: has the product changed?)` };
  if (status < 400 || status === 409) return { leak: `got past the access check: ${said}` };
  if (status === 400 && isRoute) return { fault: `400 before the ownership check (validation short-circuits: give BODIES a valid body): ${text.slice(0, 200)}` };
  return { fault: said };
}

/** What a body must not hold: A's private texts and e-mail, ids of A's objects and of A's contacts. */
function forbiddenFor(fx: Fixture, viewerId: string, urlPath: string, exposes: Exposure[]): Array<{ what: string; value: string }> {
  const shownMarkers = new Set(exposes.flatMap((e) => exposureOf(fx, e).markers));
  const shownIds = new Set(exposes.flatMap((e) => exposureOf(fx, e).ids));
  const out: Array<{ what: string; value: string }> = [];
  for (const name of MARKER_NAMES) if (!shownMarkers.has(name)) out.push({ what: `A's ${name} text`, value: fx.markers[name] });
  // Nothing exposed: no marker at all, including one a new fixture adds and forgets to name.
  if (shownMarkers.size === 0) out.push({ what: "A's marker prefix", value: fx.prefix });
  out.push({ what: "A's e-mail", value: fx.a.email.toLowerCase() });
  const ids: Record<string, string> = {
    session: fx.sessionId,
    comment: fx.commentId,
    like: fx.likeId,
    album: fx.albumId,
    photo: fx.photoId,
    conversation: fx.conversationId,
    'message to C': fx.messageIds.toC,
    'DM to C': fx.messageIds.dmToC,
    'message from C': fx.messageIds.fromC,
    'friend request to C': fx.friendshipIds.pendingToC,
    'friendship with D': fx.friendshipIds.acceptedWithD,
    review: fx.reviewId,
    'challenge invitation to D': fx.invitationIds.toD,
    'challenge invitation from D': fx.invitationIds.fromD,
    export: fx.exportId,
    device: fx.deviceId,
    // A's contacts: who A writes to, befriends or blocks is A's private graph.
    'C (A writes to, asked)': fx.c.id,
    "D (A's friend)": fx.d.id,
    'E (blocked by A)': fx.e.id,
  };
  for (const [what, id] of Object.entries(ids)) {
    if (shownIds.has(id) || urlPath.includes(id) || id === viewerId) continue;
    out.push({ what: `id of ${what}`, value: id });
  }
  return out;
}

function leaksIn(text: string, forbidden: Array<{ what: string; value: string }>): string[] {
  const lower = text.toLowerCase();
  return forbidden.filter((f) => lower.includes(f.value.toLowerCase())).map((f) => `body holds ${f.what}`);
}

function classify(template: string) {
  return CLASSIFIED.find((rule) => template === rule.prefix || template.startsWith(`${rule.prefix}/`));
}

// ---------------------------------------------------------------- the test

describe('access-control matrix: B and E on A\'s objects, every id-bearing route, every verb', () => {
  let stack: Stack;
  let fx: Fixture;
  const cells: Cell[] = [];
  const probes: Cell[] = [];
  const before: { unreadOfC: number; unreadOfA: number } = { unreadOfC: 0, unreadOfA: 0 };

  it('reads the routes from the contract table', () => {
    console.info(
      `access matrix: ${tableRoutes().length} contracts; with an id in the path:\n` +
        idRoutes.map((r: TableRoute) => `  ${r.method.padEnd(6)} ${r.template}  (${r.contract.service}.${r.contract.name})`).join('\n'),
    );
    // A broken import finds nothing or misses the well-known ones.
    expect(idRoutes.length).toBeGreaterThan(20);
    for (const known of [
      'GET /api/sessions/:id',
      'DELETE /api/sessions/:id/comments/:commentId',
      'PUT /api/sessions/:id',
      'POST /api/albums/:id/photos',
      'DELETE /api/photos/:id',
      'GET /api/conversations/:id/messages',
      'PUT /api/messages/:id/read',
      'PATCH /api/friendships/:id',
      'DELETE /api/friends/:id',
      'POST /api/friends/:id/pin',
      'GET /api/users/:id/followers',
      'POST /api/bars/:id/reviews/:reviewId/helpful',
      'GET /api/media/files/*',
      'PATCH /api/challenge-invitations/:id',
    ]) {
      expect(registered, known).toContain(known);
    }
    // The live stream's path is a constant (LIVE_EVENTS_PATH) and takes no id.
    expect(tableRoutes().map((r) => `${r.method} ${r.template}`)).toContain('GET /api/messages/events');
  });

  it('classifies or excludes every id-bearing template', () => {
    const unsorted = templates.filter((t) => !classify(t) && !EXCLUDED[t]);
    expect(unsorted, `templates neither classified (CLASSIFIED) nor excluded with a reason (EXCLUDED):\n${unsorted.join('\n')}`).toEqual([]);
    const both = templates.filter((t) => classify(t) && EXCLUDED[t]);
    expect(both, 'both classified and excluded').toEqual([]);
    // Stale tables: entries that match no scanned route are a sign of a renamed route.
    expect(Object.keys(EXCLUDED).filter((t) => !templates.includes(t)), 'EXCLUDED entries with no such route').toEqual([]);
    expect(
      CLASSIFIED.filter((rule) => !templates.some((t) => classify(t) === rule)).map((r) => r.prefix),
      'CLASSIFIED rules matching no route',
    ).toEqual([]);
    expect(Object.keys(BODIES).filter((cell) => !registered.has(cell)), 'BODIES for routes that do not exist').toEqual([]);
    expect(ALLOWED.filter((a) => !registered.has(a.cell)).map((a) => a.cell), 'ALLOWED cells that do not exist').toEqual([]);
    console.info(
      'access matrix: excluded templates\n' + Object.entries(EXCLUDED).map(([t, e]) => `  ${t}: ${e.reason}`).join('\n'),
    );
  });

  beforeAll(async () => {
    // The matrix sends a few hundred calls from one address: above the gateway's 600 a minute on a slow machine.
    stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  // In a test, not in beforeAll: the helpers poll with expect.poll, which only runs inside a test.
  it("sets up A's objects through the gateway", { timeout: 90_000 }, async () => {
    const base = stack.baseUrl;
    const [a, b, c, d, e] = await Promise.all(['owner', 'stranger', 'contact', 'friend', 'blocked'].map((label) => registerUser(base, label)));
    if (!a || !b || !c || !d || !e) throw new Error('registration failed');
    const prefix = `A-SECRET-${Math.random().toString(36).slice(2, 10)}`;
    const markers = Object.fromEntries(MARKER_NAMES.map((name) => [name, `${prefix}-${name}`])) as Record<MarkerName, string>;

    // A: private profile with a bio.
    await expectApi(base, a.token, 'PATCH', '/api/me', { bio: markers.bio }, 200);
    await expectApi(base, a.token, 'PUT', '/api/privacy', { isProfilePrivate: true }, 200);

    // A session with A's comment, reaction and like.
    const session = await logSessionViaApi(base, a, {
      title: markers.sessionTitle,
      description: markers.sessionDescription,
      location: markers.sessionLocation,
      beerCount: '2',
      duration: '90',
    });
    const comment = (await expectApi(base, a.token, 'POST', `/api/sessions/${session.id}/comments`, { content: markers.comment }, 201)) as SessionComment;
    await expectApi(base, a.token, 'POST', `/api/sessions/${session.id}/react`, { emoji: '🍺' }, 201);
    await expectApi(base, a.token, 'POST', `/api/sessions/${session.id}/like`, undefined, 200);
    const liked = (await expectApi(base, a.token, 'GET', `/api/sessions/${session.id}`, undefined, 200)) as FeedSession;
    const likeId = liked.likes[0]?.id;
    if (!likeId) throw new Error('no like on A\'s session');

    // An album with one photo.
    const album = (await expectApi(base, a.token, 'POST', '/api/albums', { name: markers.albumName, description: markers.albumDescription }, 201)) as Album;
    const form = new FormData();
    form.append('photos', new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }), `${markers.photoName}.jpg`);
    form.append('description', markers.photoDescription);
    const upload = await call(base, a.token, 'POST', `/api/albums/${album.id}/photos`, { form });
    expect(upload.status, upload.text).toBe(201);
    const photoId = (JSON.parse(upload.text) as Photo[])[0]?.id;
    if (!photoId) throw new Error('no photo stored');

    // A conversation with C: a message each way, and one through the thread API.
    await waitForMessagingUser(base, a, c);
    await waitForMessagingUser(base, c, a);
    const conversation = (await expectApi(base, a.token, 'POST', '/api/conversations', { participantId: c.id }, 201)) as Conversation;
    const toC = (await expectApi(base, a.token, 'POST', `/api/conversations/${conversation.id}/messages`, { content: markers.messageToC }, 201)) as ConversationMessage;
    const dmToC = (await expectApi(base, a.token, 'POST', '/api/messages', { toUserId: c.id, content: markers.dmToC }, 201)) as DmMessage;
    const fromC = (await expectApi(base, c.token, 'POST', `/api/conversations/${conversation.id}/messages`, { content: markers.replyFromC }, 201)) as ConversationMessage;

    // A asks C (pending), is friends with D (accepted), blocks E.
    await waitForSocialUser(base, a, c);
    const pending = (await expectApi(base, a.token, 'POST', '/api/friendships', { friendId: c.id }, 201)) as Friendship;
    await makeFriends(base, a, d);
    await waitForSocialUser(base, a, e);
    await expectApi(base, a.token, 'POST', `/api/friends/${e.id}/block`, {}, 204);

    // A reviews a bar.
    const bars = (await expectApi(base, a.token, 'GET', '/api/bars?limit=1', undefined, 200)) as Array<{ id: string }>;
    const barId = bars[0]?.id;
    if (!barId) throw new Error('the catalogue has no bars');
    const review = (await expectApi(base, a.token, 'POST', `/api/bars/${barId}/reviews`, { rating: 4, reviewText: markers.review }, 201)) as Review;

    // A invites D to one of today's challenges (inviting joins A), and D invites A to another. The
    // challenges service learns of the friendship by events: A's invitation is tried until it knows.
    const today = (await expectApi(base, a.token, 'GET', '/api/challenges', undefined, 200)) as Challenge[];
    const [invitedD, invitedByD] = today;
    if (!invitedD || !invitedByD) throw new Error(`fewer than two challenges today: ${JSON.stringify(today)}`);
    await expect
      .poll(async () => (await call(base, a.token, 'POST', `/api/challenges/${invitedD.id}/invitations`, { json: { friendId: d.id } })).status, { timeout: 15_000 })
      .toBe(201);
    await expectApi(base, d.token, 'POST', `/api/challenges/${invitedByD.id}/invitations`, { friendId: a.id }, 201);
    const invitations = (await expectApi(base, a.token, 'GET', '/api/challenge-invitations', undefined, 200)) as ChallengeInvitations;
    const toD = invitations.sent.find((i) => i.to.id === d.id)?.id;
    const fromD = invitations.received.find((i) => i.from.id === d.id)?.id;
    if (!toD || !fromD) throw new Error(`A's challenge invitations: ${JSON.stringify(invitations)}`);
    const dataExport = (await expectApi(base, a.token, 'POST', '/api/me/export', undefined, 202)) as { id: string };
    // D's invitation reaches A's inbox by an event.
    let notificationId: string | undefined;
    await expect
      .poll(async () => (notificationId = ((await expectApi(base, a.token, 'GET', '/api/notifications', undefined, 200)) as Array<{ id: string }>)[0]?.id), { timeout: 15_000 })
      .toBeTruthy();
    if (!notificationId) throw new Error('A has no notification');
    const device = ((await expectApi(base, a.token, 'GET', '/api/me/devices', undefined, 200)) as Device[]).find((d) => d.current);
    if (!device) throw new Error("A's current device is not listed");

    fx = {
      a,
      b,
      c,
      d,
      e,
      prefix,
      markers,
      barId,
      sessionId: session.id,
      commentId: comment.id,
      likeId,
      albumId: album.id,
      photoId,
      photoKeys: { thumbnail: `thumbs/${a.id}/${photoId}.webp`, display: `display/${a.id}/${photoId}.webp`, original: `originals/${a.id}/${photoId}` },
      signedPhotoUrls: [],
      conversationId: conversation.id,
      messageIds: { toC: toC.id, dmToC: dmToC.id, fromC: fromC.id },
      friendshipIds: { pendingToC: pending.id, acceptedWithD: await acceptedFriendshipId(base, a, d) },
      reviewId: review.id,
      challengeIds: { invitedD: invitedD.id, invitedByD: invitedByD.id },
      invitationIds: { toD, fromD },
      exportId: dataExport.id,
      notificationId,
      deviceId: device.id,
    };

    // Wait for the events: A's private switch in every read model, the block in places, the photo processed.
    const status = async (user: RegisteredUser, urlPath: string) => (await call(base, user.token, 'GET', urlPath)).status;
    await expect.poll(() => status(b, `/api/users/${a.id}/sessions`), { timeout: 15_000 }).toBe(403);
    await expect.poll(() => status(b, `/api/albums?userId=${a.id}`), { timeout: 15_000 }).toBe(403);
    await expect.poll(() => status(b, `/api/users/${a.id}/stats`), { timeout: 15_000 }).toBe(403);
    await expect
      .poll(async () => (await call(base, e.token, 'GET', `/api/bars/${barId}/reviews`)).text.includes(review.id), { timeout: 15_000 })
      .toBe(false);
    await expect.poll(() => status(e, `/api/users/${a.id}/sessions`), { timeout: 15_000 }).toBe(404);
    await expect.poll(() => status(b, `/api/users/${a.id}/challenges`), { timeout: 15_000 }).toBe(403);
    await expect.poll(() => status(e, `/api/users/${a.id}/challenges`), { timeout: 15_000 }).toBe(404);
    await expect
      .poll(
        async () => {
          const photos = (await expectApi(base, a.token, 'GET', `/api/albums/${album.id}/photos`, undefined, 200)) as Photo[];
          return photos[0]?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('ready');
    const [ready] = (await expectApi(base, a.token, 'GET', `/api/albums/${album.id}/photos`, undefined, 200)) as Photo[];
    fx.signedPhotoUrls = [ready?.thumbnailUrl, ready?.url].filter((u): u is string => typeof u === 'string');
    expect(fx.signedPhotoUrls.map((u) => u.split('?')[0])).toEqual([`/api/media/files/${fx.photoKeys.thumbnail}`, `/api/media/files/${fx.photoKeys.display}`]);

    before.unreadOfC = await unreadCount(base, c);
    before.unreadOfA = await unreadCount(base, a);
    expect(before.unreadOfC).toBe(2);
    expect(before.unreadOfA).toBe(1);
  });

  it('the owner reaches every object the matrix uses (so a 404 below is a refusal, not a wrong id)', async () => {
    const missed: string[] = [];
    for (const template of templates) {
      const rule = classify(template);
      if (!rule || !registered.has(`GET ${template}`)) continue;
      if (rule.kind === 'photo-file') continue; // unsigned keys answer 404 to everyone; the signed URLs below are the control
      if (rule.kind === 'export') continue; // 409 to its owner while being prepared; the owner's download is the browser test's
      for (const fill of rule.fill(fx)) {
        const urlPath = fillTemplate(template, fill);
        const answer = await call(stack.baseUrl, fx.a.token, 'GET', urlPath);
        if (answer.status !== 200) missed.push(`GET ${urlPath}: ${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
    for (const url of fx.signedPhotoUrls) {
      const answer = await fetch(`${stack.baseUrl}${url}`);
      if (answer.status !== 200) missed.push(`GET ${url}: ${answer.status}`);
    }
    expect(missed).toEqual([]);

    // The detector itself: what A reads of A's own objects is exactly what it must find in a leak.
    const seen = async (urlPath: string) => leaksIn((await call(stack.baseUrl, fx.a.token, 'GET', urlPath)).text, forbiddenFor(fx, fx.b.id, '', []));
    expect(await seen(`/api/sessions/${fx.sessionId}`)).toEqual(
      expect.arrayContaining(['body holds A\'s sessionTitle text', 'body holds A\'s comment text', 'body holds id of comment', 'body holds id of like']),
    );
    expect(await seen(`/api/albums/${fx.albumId}/photos`)).toEqual(
      expect.arrayContaining(['body holds A\'s photoName text', 'body holds A\'s photoDescription text', 'body holds id of photo']),
    );
    expect(await seen(`/api/conversations/${fx.conversationId}/messages`)).toEqual(
      expect.arrayContaining(['body holds A\'s messageToC text', 'body holds A\'s replyFromC text', 'body holds id of message from C', 'body holds id of C (A writes to, asked)']),
    );
    expect(await seen('/api/me')).toEqual(expect.arrayContaining(["body holds A's e-mail", "body holds A's bio text"]));
  });

  it('refuses B and E on every cell, and leaks nothing of A', { timeout: 90_000 }, async () => {
    const viewers: Array<{ viewer: Viewer; user: RegisteredUser }> = [
      { viewer: 'stranger', user: fx.b },
      { viewer: 'blocked', user: fx.e },
    ];
    for (const { viewer, user } of viewers) {
      for (const template of templates) {
        const rule = classify(template);
        if (!rule) continue;
        for (const fill of rule.fill(fx)) {
          expect(Object.keys(fill).sort(), `the fill of ${rule.prefix} for ${template}`).toEqual(paramsOf(template).sort());
          const urlPath = fillTemplate(template, fill);
          for (const verb of VERBS) {
            const cell = `${verb} ${template}`;
            const isRoute = registered.has(cell);
            const allowed = ALLOWED.find((a) => a.viewer === viewer && a.cell === cell);
            const spec = BODIES[cell];
            const body = spec && 'form' in spec ? { form: await spec.form(fx) } : spec ? { json: spec.json } : verb === 'GET' ? undefined : { json: {} };
            const answer = await call(stack.baseUrl, user.token, verb, urlPath, body);
            const expected = allowed ? allowed.status : isRoute ? [403, 404] : [404, 405];
            const judged = judgeStatus(answer.status, expected, isRoute, allowed !== undefined, answer.text);
            const leaks = leaksIn(answer.text, forbiddenFor(fx, user.id, urlPath, allowed?.exposes ?? []));
            if (judged.leak) leaks.push(judged.leak);
            cells.push({ viewer, verb, template, path: urlPath, status: answer.status, leaks, faults: judged.fault ? [judged.fault] : [] });
          }
        }
      }
      // Excluded templates: GET only (no mutation of B's own relations), any status below 500, no leak.
      for (const [template, exclusion] of Object.entries(EXCLUDED)) {
        if (!exclusion.probe || !registered.has(`GET ${template}`)) continue;
        for (const fill of exclusion.probe(fx)) {
          const urlPath = fillTemplate(template, fill);
          const answer = await call(stack.baseUrl, user.token, 'GET', urlPath);
          const exposes = viewer === 'blocked' ? [] : (exclusion.exposes ?? []);
          const leaks = leaksIn(answer.text, forbiddenFor(fx, user.id, urlPath, exposes));
          const faults = answer.status >= 500 ? [`status ${answer.status}: ${answer.text.slice(0, 200)}`] : [];
          probes.push({ viewer, verb: 'GET', template, path: urlPath, status: answer.status, leaks, faults });
        }
      }
    }

    const failing = [...cells, ...probes].filter((c) => c.leaks.length + c.faults.length > 0);
    const leakingEndpoints = new Set(failing.filter((c) => c.leaks.length > 0).map((c) => `${c.verb} ${c.template}`));
    const unverified = new Set(failing.filter((c) => c.faults.length > 0).map((c) => `${c.verb} ${c.template}`));
    const testedEndpoints = new Set([...registered].filter((cell) => classify(cell.slice(cell.indexOf(' ') + 1))));
    const summary = `leaking endpoints ${leakingEndpoints.size} of ${testedEndpoints.size}`;
    const resultsDir = path.join(os.tmpdir(), 'hoptrack-security');
    mkdirSync(resultsDir, { recursive: true });
    const resultsFile = path.join(resultsDir, 'access-matrix.json');
    writeFileSync(
      resultsFile,
      `${JSON.stringify(
        {
          endpoints: testedEndpoints.size,
          cells: cells.length,
          probes: probes.length,
          leaking: leakingEndpoints.size,
          leakingEndpoints: [...leakingEndpoints].sort(),
          unverified: [...unverified].sort(),
          excluded: Object.keys(EXCLUDED).length,
          allowed: ALLOWED.map((a) => `${a.viewer}: ${a.cell}`),
          date: new Date().toISOString(),
          host: os.hostname(),
        },
        null,
        2,
      )}\n`,
    );
    console.info(
      [
        `access matrix: ${summary}, ${unverified.size} unverified (${cells.length} cells over ${templates.length - Object.keys(EXCLUDED).length} templates × ${VERBS.length} verbs × 2 viewers, ` +
          `${probes.length} probes of excluded routes) -> ${resultsFile}`,
        ...[...new Set(cells.map((c) => `${c.verb} ${c.template}`))].sort().map((key) => {
          const row = cells.filter((c) => `${c.verb} ${c.template}` === key);
          return `  ${key.padEnd(55)} ${row.map((c) => `${c.viewer === 'stranger' ? 'B' : 'E'}:${c.status}`).join(' ')}${registered.has(key) ? '' : '  (no route)'}`;
        }),
        ...failing.map((c) => `  ${c.leaks.length ? 'LEAK' : 'FAULT'} ${c.viewer} ${c.verb} ${c.path}: ${[...c.leaks, ...c.faults].join('; ')}`),
      ].join('\n'),
    );
    expect(failing.map((c) => `${c.viewer} ${c.verb} ${c.path}: ${[...c.leaks, ...c.faults].join('; ')}`)).toEqual([]);
    expect(leakingEndpoints.size, summary).toBe(0);
    // Every registered cell was really tried by both viewers.
    for (const endpoint of testedEndpoints) {
      expect(cells.filter((c) => `${c.verb} ${c.template}` === endpoint).length, endpoint).toBeGreaterThanOrEqual(2);
    }
  });

  it("leaves A's objects as they were", async () => {
    const base = stack.baseUrl;
    const a = fx.a;
    const session = (await expectApi(base, a.token, 'GET', `/api/sessions/${fx.sessionId}`, undefined, 200)) as FeedSession;
    expect(session.title).toBe(fx.markers.sessionTitle);
    expect(session.description).toBe(fx.markers.sessionDescription);
    expect(session.comments.map((c) => [c.id, c.content])).toEqual([[fx.commentId, fx.markers.comment]]);
    expect(session.reactions.map((r) => [r.emoji, r.users.map((u) => u.id)])).toEqual([['🍺', [a.id]]]);
    expect(session.likes.map((l) => l.id)).toEqual([fx.likeId]);

    const albums = (await expectApi(base, a.token, 'GET', '/api/albums', undefined, 200)) as Album[];
    expect(albums.map((al) => [al.id, al.name, al.photoCount])).toEqual([[fx.albumId, fx.markers.albumName, 1]]);
    const photos = (await expectApi(base, a.token, 'GET', `/api/albums/${fx.albumId}/photos`, undefined, 200)) as Photo[];
    expect(photos.map((p) => [p.id, p.description])).toEqual([[fx.photoId, fx.markers.photoDescription]]);
    for (const url of fx.signedPhotoUrls) expect((await fetch(`${base}${url}`)).status).toBe(200);

    const messages = (await expectApi(base, a.token, 'GET', `/api/conversations/${fx.conversationId}/messages`, undefined, 200)) as ConversationMessage[];
    expect(messages.map((m) => m.content)).toEqual([fx.markers.messageToC, fx.markers.dmToC, fx.markers.replyFromC]);
    // Nobody else marked anything read.
    expect(await unreadCount(base, fx.c)).toBe(before.unreadOfC);
    expect(await unreadCount(base, a)).toBe(before.unreadOfA);

    const requests = (await expectApi(base, fx.c.token, 'GET', '/api/friends/requests', undefined, 200)) as Array<{ id: string }>;
    expect(requests.map((r) => r.id)).toContain(fx.friendshipIds.pendingToC);
    const friends = (await expectApi(base, a.token, 'GET', '/api/friends', undefined, 200)) as Array<{ id: string }>;
    expect(friends.map((f) => f.id)).toEqual([fx.d.id]);
    const blocked = (await expectApi(base, a.token, 'GET', '/api/friends/blocked', undefined, 200)) as Array<{ id: string }>;
    expect(blocked.map((u) => u.id)).toEqual([fx.e.id]);

    const reviews = (await expectApi(base, a.token, 'GET', `/api/bars/${fx.barId}/reviews?limit=50`, undefined, 200)) as Review[];
    const mine = reviews.find((r) => r.id === fx.reviewId);
    expect(mine?.reviewText).toBe(fx.markers.review);
    expect(mine?.rating).toBe(4);

    // Nobody else answered A's challenge invitations.
    const invitations = (await expectApi(base, a.token, 'GET', '/api/challenge-invitations', undefined, 200)) as ChallengeInvitations;
    expect(invitations.sent.map((i) => [i.id, i.status])).toEqual([[fx.invitationIds.toD, 'pending']]);
    expect(invitations.received.map((i) => [i.id, i.status])).toEqual([[fx.invitationIds.fromD, 'pending']]);
  });
});

/** The id of the accepted friendship between a and d (the request a sent, accepted by d). */
async function acceptedFriendshipId(baseUrl: string, a: RegisteredUser, d: RegisteredUser): Promise<string> {
  const friends = (await expectApi(baseUrl, a.token, 'GET', '/api/friends', undefined, 200)) as Friend[];
  const id = friends.find((f) => f.id === d.id)?.friendshipId;
  if (!id) throw new Error(`D is not in A's friends: ${JSON.stringify(friends)}`);
  return id;
}

async function unreadCount(baseUrl: string, user: RegisteredUser): Promise<number> {
  return ((await expectApi(baseUrl, user.token, 'GET', '/api/messages/unread', undefined, 200)) as UnreadSummary).unreadMessages;
}
