import type { FeedSession } from '@hoptrack/proto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Client } from './support';
import { expectError, ok } from '@hoptrack/testing';

/** The response checks every service's tests share. */
export { expectError, ok };

/** The ids of one feed page as `client` sees it (200 expected). */
export async function feedIds(client: Client, query = ''): Promise<string[]> {
  const res = await client.get(`/api/sessions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as FeedSession[]).map((s) => s.id);
}

/** Each reads their feed, which makes their timeline live: fan-out writes only the timelines of people active in the window. */
export async function readFeeds(...clients: Client[]): Promise<void> {
  for (const client of clients) await feedIds(client);
}

export const jpeg = (background = '#c80') => sharp({ create: { width: 32, height: 24, channels: 3, background } }).jpeg().toBuffer();
