import { randomUUID } from 'node:crypto';
import type { EventType } from '@hoptrack/proto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestSocial, TestUser } from './support';

/** An event reduced to what the tests compare: its type and payload. */
export interface SeenEvent {
  type: EventType;
  data: Record<string, unknown>;
}

/** Every SOCIAL event so far whose payload names one of the users, in stream order. */
export async function eventsAbout(social: TestSocial, ...users: TestUser[]): Promise<SeenEvent[]> {
  const wanted = new Set(users.map((u) => u.id));
  return (await social.events())
    .map((e): SeenEvent => ({ type: e.type, data: { ...e.data } }))
    .filter((e) => Object.values(e.data).some((v) => typeof v === 'string' && wanted.has(v)));
}

/** Runs `act` and returns exactly the SOCIAL events (about `users`) it caused. */
export async function eventsDuring(social: TestSocial, users: TestUser[], act: () => Promise<unknown>): Promise<SeenEvent[]> {
  const before = (await eventsAbout(social, ...users)).length;
  await act();
  return (await eventsAbout(social, ...users)).slice(before);
}

/** Asserts the uniform error body: status, and optionally the message (exact or partial) and the field. */
export function expectError(res: LightMyRequestResponse, status: number, expected: { message?: string | RegExp; field?: string } = {}): void {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = res.json<{ statusCode: number; message: string; field?: string }>();
  expect(body.statusCode).toBe(status);
  if (typeof expected.message === 'string') expect(body.message).toBe(expected.message);
  if (expected.message instanceof RegExp) expect(body.message).toMatch(expected.message);
  if (expected.field !== undefined) expect(body.field).toBe(expected.field);
}

/** Expects 204 No Content. */
export function noContent(res: LightMyRequestResponse): void {
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
}

/** Expects the status (200 unless told) and returns the JSON body. */
export function ok<T>(res: LightMyRequestResponse, status = 200): T {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  return res.json<T>();
}

/** Beer sessions in the read model (fed by session events in issue 6; written directly here). */
export async function addSessions(
  social: TestSocial,
  user: TestUser,
  sessions: Array<{ beers?: number; minutes?: number; daysAgo?: number }>,
): Promise<void> {
  await social.prisma.sessionFact.createMany({
    data: sessions.map((s) => ({
      sessionId: randomUUID(),
      userId: user.id,
      beerCount: s.beers ?? 1,
      durationMinutes: s.minutes ?? 60,
      createdAt: new Date(Date.now() - (s.daysAgo ?? 0) * 24 * 60 * 60 * 1000),
    })),
  });
}

/** A unique tag for names that searches must find exactly. */
let seq = 0;
export function tag(prefix: string): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${seq}`;
}

export const idsOf = (list: Array<{ id: string }>): string[] => list.map((u) => u.id);
export const sortedIds = (list: Array<{ id: string }>): string[] => idsOf(list).sort();
export const unknownId = (): string => randomUUID();
