import { randomUUID } from 'node:crypto';
import type { EventType } from '@hoptrack/proto';
import type { TestSocial, TestUser } from './support';
import { expectError, noContent, ok } from '@hoptrack/testing';

/** The response checks every service's tests share. */
export { expectError, noContent, ok };

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
