import type { AuthResponse, FeedSession } from '@hoptrack/proto';
import { expect } from 'vitest';
import { CONDITION_BOUND_MS } from './bounds';

/**
 * The product's API as a test uses it from outside (through the gateway):
 * unique users, registration, calls with a token, friendships, sessions.
 * The browser tests, the operations, security and reliability tests and the
 * bench share these; nothing here needs a browser.
 */
export interface TestUser {
  email: string;
  username: string;
  displayName: string;
  password: string;
}

const RUN_ID = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let userCount = 0;

/** A user nobody registered yet: unique per test run and per call. */
export function uniqueUser(label: string): TestUser {
  userCount += 1;
  const id = `${RUN_ID}${userCount}`;
  return {
    email: `e2e-${label}-${id}@example.com`,
    username: `${label}_${id}`.slice(0, 30),
    displayName: `${label.charAt(0).toUpperCase()}${label.slice(1)} Tester`,
    password: 'hoppy-secret-1',
  };
}

/** Registers through the API (not the UI) for tests that are about something else. */
export async function registerViaApi(baseUrl: string, user: TestUser): Promise<AuthResponse> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: user.email,
      username: user.username,
      displayName: user.displayName,
      password: user.password,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as AuthResponse;
}

/** A user registered through the API: their id and token, and what they registered with. */
export interface RegisteredUser extends TestUser {
  id: string;
  token: string;
}

export async function registerUser(baseUrl: string, label: string): Promise<RegisteredUser> {
  const user = uniqueUser(label);
  const { token, user: created } = await registerViaApi(baseUrl, user);
  return { ...user, id: created.id, token };
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** One call to /api as `token`: JSON in, status and parsed JSON (or null) out. */
export async function callApi(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** The same call, which must answer `expected` (2xx by default). */
export async function expectApi(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  expected?: number,
): Promise<unknown> {
  const answer = await callApi(baseUrl, token, method, path, body);
  if (expected === undefined) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  else expect(answer.status, JSON.stringify(answer.body)).toBe(expected);
  return answer.body;
}

/**
 * Waits until the social graph knows `user` (it learns of registrations by
 * events, a moment after auth answered) as seen by `viewer`.
 */
export async function waitForSocialUser(baseUrl: string, viewer: RegisteredUser, user: RegisteredUser): Promise<void> {
  await expect
    .poll(async () => (await callApi(baseUrl, viewer.token, 'GET', `/api/users/${user.id}`)).status, { timeout: CONDITION_BOUND_MS })
    .toBe(200);
}

/**
 * Waits until the messaging service knows `user` (it learns of registrations
 * by events) as someone `viewer` may address: GET /api/messages/{id} answers 200.
 */
export async function waitForMessagingUser(baseUrl: string, viewer: RegisteredUser, user: RegisteredUser): Promise<void> {
  await expect
    .poll(async () => (await callApi(baseUrl, viewer.token, 'GET', `/api/messages/${user.id}`)).status, { timeout: CONDITION_BOUND_MS })
    .toBe(200);
}

/** Makes `a` and `b` friends through the API: a asks, b accepts. */
export async function makeFriends(baseUrl: string, a: RegisteredUser, b: RegisteredUser): Promise<void> {
  await waitForSocialUser(baseUrl, a, b);
  await waitForSocialUser(baseUrl, b, a);
  const request = (await expectApi(baseUrl, a.token, 'POST', '/api/friendships', { friendId: b.id }, 201)) as { id: string };
  await expectApi(baseUrl, b.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
}

/** A file part of a multipart call. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * Logs a beer session as `user` through the API (POST /api/sessions,
 * multipart): `fields` as text, `photo` as the `sessionPhoto` part.
 */
export async function logSessionViaApi(
  baseUrl: string,
  user: RegisteredUser,
  fields: Record<string, string>,
  photo?: UploadFile,
): Promise<FeedSession> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (photo) form.append('sessionPhoto', new Blob([new Uint8Array(photo.buffer)], { type: photo.mimeType }), photo.name);
  const res = await fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { Authorization: `Bearer ${user.token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as FeedSession;
}
