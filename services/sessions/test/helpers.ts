import type { FeedSession } from '@hoptrack/proto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Client } from './support';

/** The ids of one feed page as `client` sees it (200 expected). */
export async function feedIds(client: Client, query = ''): Promise<string[]> {
  const res = await client.get(`/api/sessions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as FeedSession[]).map((s) => s.id);
}

/** Expects the status (200 unless told) and returns the JSON body. */
export function ok<T>(res: LightMyRequestResponse, status = 200): T {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  return res.json<T>();
}

/** Asserts the uniform error body: status, and optionally the field and message. */
export function expectError(res: LightMyRequestResponse, status: number, expected: { field?: string; message?: string | RegExp } = {}): void {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = res.json<{ statusCode: number; message: string; field?: string }>();
  expect(body.statusCode).toBe(status);
  if (expected.field !== undefined) expect(body.field, body.message).toBe(expected.field);
  if (typeof expected.message === 'string') expect(body.message).toBe(expected.message);
  if (expected.message instanceof RegExp) expect(body.message).toMatch(expected.message);
}

export const jpeg = (background = '#c80') => sharp({ create: { width: 32, height: 24, channels: 3, background } }).jpeg().toBuffer();
