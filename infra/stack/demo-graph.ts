/**
 * Demo relationships for `make dev`, made through the public API like a
 * person would: alice and bob are friends, carol has asked alice, and bob
 * has written to alice (an unread conversation on her /messages), and alice
 * and bob have logged sessions that the other liked and commented on (a feed
 * that is not empty on first sign-in). Idempotent: what already exists is
 * left alone. The demo users come from `make seed`.
 */
const PASSWORD = 'hoptrack';

interface Session {
  token: string;
  id: string;
}

async function call<T>(baseUrl: string, method: string, path: string, token?: string, body?: object): Promise<{ status: number; json: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    // No content type without a body: Fastify refuses an empty JSON body (a like has none).
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

async function login(baseUrl: string, name: string): Promise<Session> {
  const res = await call<{ token: string; user: { id: string } }>(baseUrl, 'POST', '/api/auth/login', undefined, {
    email: `${name}@hoptrack.dev`,
    password: PASSWORD,
  });
  if (res.status !== 200) throw new Error(`demo login of ${name} failed: ${res.status}`);
  return { token: res.json.token, id: res.json.user.id };
}

/** The social graph learns of users from events; wait until it knows them all. */
async function waitForReadModel(baseUrl: string, viewer: Session, ids: string[]): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const results = await Promise.all(ids.map((id) => call(baseUrl, 'GET', `/api/users/${id}`, viewer.token)));
    if (results.every((r) => r.status === 200)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the social graph did not learn of the demo users in time');
}

export async function seedDemoGraph(baseUrl: string): Promise<void> {
  const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((name) => login(baseUrl, name)));
  if (!alice || !bob || !carol) return;
  await waitForReadModel(baseUrl, alice, [bob.id, carol.id]);

  const bobSeen = await call<{ friendshipStatus: string; friendshipId: string | null }>(baseUrl, 'GET', `/api/users/${bob.id}`, alice.token);
  if (bobSeen.json.friendshipStatus === 'none') {
    const sent = await call<{ id: string }>(baseUrl, 'POST', '/api/friendships', alice.token, { friendId: bob.id });
    await call(baseUrl, 'PATCH', `/api/friendships/${sent.json.id}`, bob.token, { action: 'accept' });
  }
  const carolSeen = await call<{ friendshipStatus: string }>(baseUrl, 'GET', `/api/users/${carol.id}`, alice.token);
  if (carolSeen.json.friendshipStatus === 'none') {
    await call(baseUrl, 'POST', '/api/friendships', carol.token, { friendId: alice.id });
  }
  await seedDemoConversation(baseUrl, bob, alice);
  await seedDemoSessions(baseUrl, alice, bob);
}

interface DemoSession {
  title: string;
  description: string;
  beerCount: number;
  duration: number;
  avgAbv: string;
  location: string;
  beerTypes: string[];
}

/** Logs `session` as `by` unless they have logged it already; answers its id. */
async function logOnce(baseUrl: string, by: Session, session: DemoSession): Promise<string> {
  const mine = await call<{ id: string; title: string }[]>(baseUrl, 'GET', '/api/me/sessions', by.token);
  const existing = mine.json.find((s) => s.title === session.title);
  if (existing) return existing.id;
  const form = new FormData();
  for (const [name, value] of Object.entries(session)) form.append(name, Array.isArray(value) ? JSON.stringify(value) : String(value));
  const res = await fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${by.token}` }, body: form });
  if (res.status !== 201) throw new Error(`demo session of ${session.title} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function seedDemoSessions(baseUrl: string, alice: Session, bob: Session): Promise<void> {
  const bobs = await logOnce(baseUrl, bob, {
    title: 'Hazy IPA night',
    description: 'Three hazies side by side; the double dry-hopped one won.',
    beerCount: 3,
    duration: 120,
    avgAbv: '6.8',
    location: 'Pints Pub Brewery and Freehouse',
    beerTypes: ['IPA'],
  });
  await logOnce(baseUrl, alice, {
    title: 'Stout tasting with friends',
    description: 'Imperial stouts and a coffee porter to finish.',
    beerCount: 2,
    duration: 90,
    avgAbv: '9.5',
    location: 'Home',
    beerTypes: ['Stout', 'Porter'],
  });
  // POST like is idempotent (liking twice leaves one like); the comment is added once.
  await call(baseUrl, 'POST', `/api/sessions/${bobs}/like`, alice.token);
  const card = await call<{ commentCount: number }>(baseUrl, 'GET', `/api/sessions/${bobs}`, bob.token);
  if (card.json.commentCount === 0) {
    await call(baseUrl, 'POST', `/api/sessions/${bobs}/comments`, alice.token, { content: 'Save me one of the double dry-hopped!' });
  }
}

/** Messaging hears of users by events too: retry while it does not know alice yet (404). */
async function seedDemoConversation(baseUrl: string, from: Session, to: Session): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const thread = await call<unknown[]>(baseUrl, 'GET', `/api/messages/${to.id}`, from.token);
    if (thread.status === 200) {
      if (thread.json.length === 0) {
        await call(baseUrl, 'POST', '/api/messages', from.token, { toUserId: to.id, content: 'Pints at the brewpub tonight? 🍻' });
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the messaging service did not learn of the demo users in time');
}
