import { createHash } from 'node:crypto';
import type { RouteContract } from '@hoptrack/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { executeSql, queryRows, sql } from '../db/fragment';
import type { SqlClient } from '../db/sql';
import { HttpError } from './errors';

/**
 * Idempotent writes (issue 38, item 2). A phone in a bar sends a session, the
 * answer is lost on the way back, and it sends it again: with the same
 * `Idempotency-Key` header, the second request answers what the first
 * answered (same status, same body) and writes nothing.
 *
 * Every contract but a GET takes the header (runtime mountRoutes): the rule is
 * the runtime's, so no route can forget it. The first request with a key
 * claims it (a row of the platform's `idempotent_requests` table, in the
 * service's own database); its answer is stored when it is sent — also when
 * the client is no longer there to read it, which is the case this is for.
 *
 * - A repeat within 24 h with the same request: the stored answer, with
 *   `Idempotent-Replayed: true`.
 * - The same key with a different request (method, path or body): 422.
 * - A repeat while the first still runs: waits for its answer (up to WAIT_MS),
 *   then 409 with the reason.
 * - The first answered 5xx, 401 or 429 (nothing was done, or it may be
 *   tried again): the claim is dropped and a repeat runs afresh.
 * - The first never answered (its process died): its claim lapses after
 *   LEASE_MS and a repeat runs afresh. Whether the dead one committed is not
 *   known here; the write's own transaction does not hold the claim.
 *
 * The key is scoped by the caller (their user id) and the contract, so one
 * person's key never answers for another.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long an answer is kept for a repeat. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** How long a claim holds without an answer (a request that takes longer than this loses it). */
const LEASE_MS = 120_000;
/** How long a concurrent repeat waits for the first's answer before it is told 409. */
const WAIT_MS = 5_000;
const POLL_MS = 50;
const KEY = /^[\x21-\x7e]{1,255}$/;
/** Answers that are not kept: the request did nothing, or may be tried again as it is. */
const NOT_KEPT = (status: number) => status >= 500 || status === 401 || status === 408 || status === 429;

export interface IdempotencyOptions {
  /** The service's database (the platform's `idempotent_requests` table is in it). */
  db: SqlClient;
  /** The process clock, for the lease and the time to live (tests move it). */
  clock?: () => Date;
  waitMs?: number;
}

interface Claim {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed; its answer is stored when sent. */
    idempotencyClaim?: Claim;
  }
}

interface StoredRow {
  fingerprint: string;
  status: number | null;
  body: string | null;
  content_type: string | null;
  locked_until: Date;
  created_at: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What makes two requests the same: method, URL and body (an upload's bytes are not read here: its key alone names it). */
function fingerprintOf(contract: RouteContract, request: FastifyRequest): string {
  const body = contract.upload ? '' : JSON.stringify(request.body ?? null);
  return sha256(`${request.method} ${request.url}\n${body}`);
}

export function idempotency(options: IdempotencyOptions) {
  const now = options.clock ?? (() => new Date());
  const waitMs = options.waitMs ?? WAIT_MS;
  const { db } = options;

  /** Takes the key if nobody holds it (or the holder's claim or answer has lapsed); the row as it stands otherwise. */
  async function take(claim: Claim, fingerprint: string): Promise<StoredRow | null> {
    const at = now();
    const lease = new Date(at.getTime() + LEASE_MS);
    const expired = new Date(at.getTime() - IDEMPOTENCY_TTL_MS);
    const taken = await queryRows<Array<{ key: string }>>(
      db,
      sql`INSERT INTO "idempotent_requests" ("scope", "key", "fingerprint", "locked_until", "created_at")
        VALUES (${claim.scope}, ${claim.key}, ${fingerprint}, ${lease}, ${at})
        ON CONFLICT ("scope", "key") DO UPDATE SET "fingerprint" = EXCLUDED."fingerprint", "status" = NULL, "body" = NULL,
          "content_type" = NULL, "locked_until" = EXCLUDED."locked_until", "created_at" = EXCLUDED."created_at"
        WHERE "idempotent_requests"."created_at" < ${expired}
           OR ("idempotent_requests"."status" IS NULL AND "idempotent_requests"."locked_until" < ${at})
        RETURNING "key"`,
    );
    if (taken.length > 0) return null;
    const [row] = await queryRows<StoredRow[]>(
      db,
      sql`SELECT "fingerprint", "status", "body", "content_type", "locked_until", "created_at" FROM "idempotent_requests"
        WHERE "scope" = ${claim.scope} AND "key" = ${claim.key}`,
    );
    // Dropped between the two statements (a 5xx released it): try again.
    return row ?? take(claim, fingerprint);
  }

  /** Before the handler: claims the key, or answers from the first request. */
  async function before(contract: RouteContract, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const header = request.headers[IDEMPOTENCY_HEADER];
    // A credential route's answer holds a bearer token (login, register, a password change): never kept in a
    // table for a day. Its key is ignored, and a retry runs again (a second sign-in, or 409 for the taken address).
    if (header === undefined || contract.rateLimit === 'credential') return false;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !KEY.test(key)) throw new HttpError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters', 'Idempotency-Key');
    const claim = { scope: `${request.auth?.userId ?? 'anonymous'} ${contract.service}.${contract.name}`, key };
    const fingerprint = fingerprintOf(contract, request);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const held = await take(claim, fingerprint);
      if (!held) {
        request.idempotencyClaim = claim;
        return false;
      }
      if (held.fingerprint !== fingerprint) {
        throw new HttpError(422, 'This Idempotency-Key was used for a different request; use a new key for a new request', 'Idempotency-Key');
      }
      if (held.status !== null) {
        reply.code(held.status).header(REPLAYED_HEADER, 'true');
        if (held.content_type) reply.type(held.content_type);
        await reply.send(held.body ?? undefined);
        return true;
      }
      if (Date.now() >= deadline) {
        throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; try again in a moment', 'Idempotency-Key');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** As the answer is sent (onSend): kept for repeats, or the claim dropped when the answer is not one to keep. */
  async function after(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    request.idempotencyClaim = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
    if (NOT_KEPT(reply.statusCode) || body === null) {
      // A stream is not kept either: a repeat runs afresh.
      await executeSql(db, sql`DELETE FROM "idempotent_requests" WHERE "scope" = ${claim.scope} AND "key" = ${claim.key} AND "status" IS NULL`);
      return;
    }
    const type = reply.getHeader('content-type');
    await executeSql(
      db,
      sql`UPDATE "idempotent_requests" SET "status" = ${reply.statusCode}, "body" = ${body}, "content_type" = ${typeof type === 'string' ? type : null}
        WHERE "scope" = ${claim.scope} AND "key" = ${claim.key}`,
    );
  }

  return { before, after };
}

export type Idempotency = ReturnType<typeof idempotency>;

/**
 * The kept answers that name a person, for their erasure (issue 24's search
 * of every store): the answers to their own requests (the scope starts with
 * their id) and any answer whose body names them. The table holds a day of
 * answers at most (db/retention.ts), so this reads a day, never the history.
 */
export async function forgetAnswersNaming(tx: SqlClient, needles: readonly string[]): Promise<void> {
  for (const needle of needles) {
    const text = needle.toLowerCase();
    await executeSql(
      tx,
      sql`DELETE FROM "idempotent_requests" WHERE strpos(lower("scope"), ${text}) > 0 OR strpos(lower(coalesce("body", '')), ${text}) > 0`,
    );
  }
}
