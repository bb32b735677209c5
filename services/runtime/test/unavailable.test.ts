import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from '../src/http/unavailable';

/**
 * The errors drivers raise when Postgres, Redis or NATS go away, as seen in the
 * fault tests (infra/reliability), and errors that are bugs: only the first
 * kind may answer 503. The fault tests found the first two rows answering 500.
 */
const wrapped = (inner: unknown) => Object.assign(new Error('Invalid `prisma.user.create()` invocation'), { cause: inner });

describe('isDependencyUnavailable', () => {
  it.each([
    ['pg after its socket died', new Error('Client has encountered a connection error and is not queryable')],
    ['Postgres replaying its log (Prisma 7 keeps the driver error under meta)', Object.assign(new Error('query failed'), { meta: { driverAdapterError: Object.assign(new Error('x'), { code: '57P03' }) } })],
    ['a refused connection deep in the cause chain', wrapped(wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })))],
    ['Prisma cannot reach the server', Object.assign(new Error('x'), { code: 'P1001' })],
    ['ioredis with Redis gone', new Error('Connection is closed.')],
  ])('%s: yes', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation', Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })],
    ['not an error at all', 'ECONNREFUSED? no, a string'],
    ['a cause cycle', (() => { const a: { cause?: unknown; message: string } = { message: 'a' }; a.cause = a; return a; })()],
  ])('%s: no', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
