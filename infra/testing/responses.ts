import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Expects the status (200 unless told) and returns the JSON body. */
export function ok<T>(res: LightMyRequestResponse, status = 200): T {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  return res.json<T>();
}

/** Asserts the uniform error body: status, and optionally the field and message (exact or a pattern). */
export function expectError(res: LightMyRequestResponse, status: number, expected: { field?: string; message?: string | RegExp } = {}): void {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = res.json<{ statusCode: number; message: string; field?: string }>();
  expect(body.statusCode).toBe(status);
  if (expected.field !== undefined) expect(body.field, body.message).toBe(expected.field);
  if (typeof expected.message === 'string') expect(body.message).toBe(expected.message);
  if (expected.message instanceof RegExp) expect(body.message).toMatch(expected.message);
}

/** Expects 204 No Content. */
export function noContent(res: LightMyRequestResponse): void {
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
}
