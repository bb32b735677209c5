import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Album, Bar, DmMessage, FeedSession, Friendship, FriendRequest, LikeResponse, Photo, Review, SessionComment, SessionLike } from '@hoptrack/proto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@hoptrack/testing';
import { callApi, expectApi, logSessionViaApi, registerUser, waitForSocialUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 38, item 2: a lost answer, retried. A TCP proxy in front of the
 * gateway lets a write through and, when armed, cuts both connections as the
 * first byte of the answer comes back: the service has committed and answered,
 * the client sees only a broken connection (its fetch rejects — asserted, so
 * every cut is proven). The client sends the identical request again:
 *
 * - with the same `Idempotency-Key`: the first answer is replayed
 *   (`Idempotent-Replayed: true`, the success status, the same object) and
 *   exactly one session, comment, message, like, review, album photo and
 *   friend request exists, read back through the gateway;
 * - without a key (the control): the retry of a session, comment, message
 *   or album photo makes a second one — the doubling is real, and the key
 *   is what prevents it. A like, a review and a friend request refuse a
 *   duplicate by themselves (a like is a no-op, the other two 409): their
 *   retry's answer is recorded and they stay at one.
 *
 * Every request through the proxy uses a fresh connection (`Connection:
 * close`), so arming applies to exactly the next request. Prints the line
 * 'lost answers: <kind> cut ok, replayed <status>, with key <n>, without key <m>; …'.
 */

// ---------------------------------------------------------------- the proxy

interface CuttingProxy {
  url: string;
  /** Cuts the next connection's answer at its first byte; resolves once it did. */
  arm(): Promise<void>;
  close(): Promise<void>;
}

async function cuttingProxy(target: string): Promise<CuttingProxy> {
  const upstreamUrl = new URL(target);
  let armed: (() => void) | null = null;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(upstreamUrl.port), upstreamUrl.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.end());
    client.pipe(upstream);
    const cut = armed;
    armed = null;
    if (!cut) {
      upstream.pipe(client);
      return;
    }
    // The answer's first byte: the service has committed and answered. Nobody gets it.
    upstream.once('data', () => {
      upstream.destroy();
      client.destroy();
      cut();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    arm: () => {
      if (armed) throw new Error('proxy already armed');
      return new Promise<void>((resolve) => {
        armed = resolve;
      });
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

// ---------------------------------------------------------------- the kinds

/** One object to create: the write (through the proxy) and how to read back what it created (through the gateway). */
interface Target {
  send(key?: string): Promise<Response>;
  /** The ids of the objects this write makes, as the read API shows them. */
  ids(): Promise<string[]>;
  /** The id of the object a success answer names (the one that must exist); null when the answer names none. */
  answered(body: unknown): string | null;
}

interface Kind {
  name: string;
  /** The write's success status. */
  status: number;
  /** Whether a retry without a key makes a second object (the control asserts it); else the service refuses the duplicate itself. */
  doubles: boolean;
  /** A fresh object to create (its own session, album, bar or addressee), so each run counts only its own. */
  target(): Promise<Target>;
}

let stack: Stack;
let proxy: CuttingProxy;
let a: RegisteredUser;
let b: RegisteredUser;
let barIds: string[] = [];
let jpeg: Buffer;

type Body = { json: unknown } | { form: () => FormData };

/** One write as `user` through the proxy, on a connection of its own, with `key` as its Idempotency-Key when given. */
function through(user: RegisteredUser, method: string, path: string, body: Body, key?: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}`, connection: 'close' };
  if (key !== undefined) headers['idempotency-key'] = key;
  if ('json' in body) headers['content-type'] = 'application/json';
  return fetch(`${proxy.url}${path}`, { method, headers, body: 'json' in body ? JSON.stringify(body.json) : body.form() });
}

/** A read through the gateway (not the proxy), which must answer 200. */
async function read<T>(user: RegisteredUser, path: string): Promise<T> {
  const answer = await callApi(stack.baseUrl, user.token, 'GET', path);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body as T;
}

/** A session of A's that B can see (B is A's friend; the sessions service learns of it by events). */
async function sessionBSees(): Promise<FeedSession> {
  const session = await logSessionViaApi(stack.baseUrl, a, { title: `Seen by B ${randomUUID()}` });
  await expect.poll(async () => (await callApi(stack.baseUrl, b.token, 'GET', `/api/sessions/${session.id}`)).status).toBe(200);
  return session;
}

const KINDS: Kind[] = [
  {
    name: 'session',
    status: 201,
    doubles: true,
    target: async () => {
      const title = `Lost answer ${randomUUID()}`;
      return {
        send: (key) => through(a, 'POST', '/api/sessions', { form: () => formOf({ title }) }, key),
        ids: async () => (await read<FeedSession[]>(a, '/api/me/sessions?limit=50')).filter((s) => s.title === title).map((s) => s.id),
        answered: (body) => (body as FeedSession).id,
      };
    },
  },
  {
    name: 'comment',
    status: 201,
    doubles: true,
    target: async () => {
      const session = await sessionBSees();
      return {
        send: (key) => through(b, 'POST', `/api/sessions/${session.id}/comments`, { json: { content: 'Cheers, lost and found' } }, key),
        ids: async () => (await read<SessionComment[]>(a, `/api/sessions/${session.id}/comments`)).map((c) => c.id),
        answered: (body) => (body as SessionComment).id,
      };
    },
  },
  {
    name: 'message',
    status: 201,
    doubles: true,
    target: async () => {
      const content = `Lost answer ${randomUUID()}`;
      return {
        send: (key) => through(a, 'POST', '/api/messages', { json: { toUserId: b.id, content } }, key),
        ids: async () => (await read<DmMessage[]>(a, `/api/messages/${b.id}?limit=100`)).filter((m) => m.content === content).map((m) => m.id),
        answered: (body) => (body as DmMessage).id,
      };
    },
  },
  {
    name: 'like',
    status: 200,
    doubles: false,
    target: async () => {
      const session = await sessionBSees();
      return {
        send: (key) => through(b, 'POST', `/api/sessions/${session.id}/like`, { json: {} }, key),
        ids: async () => (await read<SessionLike[]>(a, `/api/sessions/${session.id}/likes`)).map((l) => l.id),
        answered: (body) => {
          expect(body as LikeResponse).toEqual({ liked: true, likeCount: 1 });
          return null;
        },
      };
    },
  },
  {
    name: 'review',
    status: 201,
    doubles: false,
    target: async () => {
      const barId = barIds.shift();
      if (!barId) throw new Error('no bar left to review');
      return {
        send: (key) => through(a, 'POST', `/api/bars/${barId}/reviews`, { json: { rating: 4, reviewText: 'Found my answer here' } }, key),
        ids: async () => (await read<Review[]>(a, `/api/bars/${barId}/reviews?limit=50`)).filter((r) => r.userId === a.id).map((r) => r.id),
        answered: (body) => (body as Review).id,
      };
    },
  },
  {
    name: 'album photo',
    status: 201,
    doubles: true,
    target: async () => {
      const album = (await expectApi(stack.baseUrl, a.token, 'POST', '/api/albums', { name: 'Lost answers' }, 201)) as Album;
      return {
        send: (key) => through(a, 'POST', `/api/albums/${album.id}/photos`, { form: () => formOf({}, jpeg) }, key),
        ids: async () => (await read<Photo[]>(a, `/api/albums/${album.id}/photos`)).map((p) => p.id),
        answered: (body) => {
          const photos = body as Photo[];
          expect(photos).toHaveLength(1);
          return photos[0]!.id;
        },
      };
    },
  },
  {
    name: 'friend request',
    status: 201,
    doubles: false,
    target: async () => {
      const addressee = await registerUser(stack.baseUrl, 'lostfriend');
      await waitForSocialUser(stack.baseUrl, a, addressee);
      return {
        send: (key) => through(a, 'POST', '/api/friendships', { json: { friendId: addressee.id } }, key),
        ids: async () => (await read<FriendRequest[]>(addressee, '/api/friends/requests')).filter((r) => r.user.id === a.id).map((r) => r.id),
        answered: (body) => (body as Friendship).id,
      };
    },
  },
];

/** A multipart body: text fields, and the JPEG as a `photos` part when given. */
function formOf(fields: Record<string, string>, photo?: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (photo) form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'lost-answer.jpg');
  return form;
}

/** Sends the write with its answer cut; passes only if the service answered and the client got nothing. */
async function sendCut(target: Target, key?: string): Promise<void> {
  const cut = proxy.arm();
  await expect(target.send(key)).rejects.toThrow();
  await cut;
}

// ---------------------------------------------------------------- the test

interface Row {
  cut: boolean;
  replayed: string;
  withKey: number;
  withoutKey: string;
}
const rows = new Map<string, Row>(KINDS.map((k) => [k.name, { cut: false, replayed: '-', withKey: -1, withoutKey: '-' }]));
const row = (kind: Kind): Row => rows.get(kind.name)!;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  proxy = await cuttingProxy(stack.baseUrl);
  [a, b] = await Promise.all([registerUser(stack.baseUrl, 'lostA'), registerUser(stack.baseUrl, 'lostB')]);
  // B is A's friend (so B sees A's sessions), and the messaging service knows B. (expect.poll only runs inside a test.)
  const answers = (user: RegisteredUser, path: string) => async () => (await callApi(stack.baseUrl, user.token, 'GET', path)).status === 200;
  await eventually(answers(a, `/api/users/${b.id}`), 'the social graph knows B');
  await eventually(answers(b, `/api/users/${a.id}`), 'the social graph knows A');
  const request = (await expectApi(stack.baseUrl, a.token, 'POST', '/api/friendships', { friendId: b.id }, 201)) as Friendship;
  await expectApi(stack.baseUrl, b.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
  await eventually(answers(a, `/api/messages/${b.id}`), 'the messaging service knows B');
  barIds = (await read<Bar[]>(a, '/api/bars?limit=2')).map((bar) => bar.id);
  expect(barIds, 'two bars in the catalogue').toHaveLength(2);
  jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 120, b: 20 } } })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  console.info(
    `lost answers: ${[...rows]
      .map(([name, r]) => `${name} cut ${r.cut ? 'ok' : 'NO'}, replayed ${r.replayed}, with key ${r.withKey}, without key ${r.withoutKey}`)
      .join('; ')}`,
  );
  await proxy?.close();
  await stack?.stop();
});

describe('a lost answer retried with its Idempotency-Key is replayed: one object', () => {
  for (const kind of KINDS) {
    it(kind.name, async () => {
      const target = await kind.target();
      const key = `lost-answer-${randomUUID()}`;
      await sendCut(target, key);
      row(kind).cut = true;

      const retry = await target.send(key);
      const text = await retry.text();
      expect(retry.status, text).toBe(kind.status);
      expect(retry.headers.get('idempotent-replayed'), 'the retry is answered from the stored answer').toBe('true');
      row(kind).replayed = `${retry.status}`;

      const ids = await target.ids();
      row(kind).withKey = ids.length;
      const answered = target.answered(JSON.parse(text) as unknown);
      expect(ids, 'exactly one, the one the replayed answer names').toEqual(answered === null ? [expect.any(String)] : [answered]);
    });
  }
});

describe('control: the same lost answer retried without a key', () => {
  for (const kind of KINDS) {
    const what = kind.doubles ? 'makes a second one' : 'is refused or a no-op by the service itself';
    it(`${kind.name}: ${what}`, async () => {
      const target = await kind.target();
      await sendCut(target);
      const retry = await target.send();
      const text = await retry.text();
      expect(retry.headers.get('idempotent-replayed'), 'nothing to replay without a key').toBeNull();
      const count = (await target.ids()).length;
      row(kind).withoutKey = `${count} (retry ${retry.status})`;
      if (kind.doubles) {
        expect(retry.status, text).toBe(kind.status);
        expect(count, 'the retry without a key doubled it').toBe(2);
      } else {
        expect(retry.status, text).toBeLessThan(500);
        expect(count, 'the service itself refused the duplicate').toBe(1);
      }
    });
  }
});
