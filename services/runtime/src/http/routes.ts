import { appendFileSync, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import multipart from '@fastify/multipart';
import { hasRole, needsToken, NEXT_CURSOR_HEADER, type RouteContract, type RouteSpec, type RouteTable } from '@hoptrack/proto';
import type { ContextConfigDefault, FastifyReply, FastifyRequest, RawServerDefault, RouteGenericInterface, RouteOptions } from 'fastify';
import type { z, ZodType } from 'zod';
import type { Authenticate } from '../auth/authenticate';
import type { Identity } from '../auth/authenticate';
import type { SqlClient } from '../db/sql';
import { forbidden, unauthorized } from './errors';
import { idempotency, type Idempotency } from './idempotency';
import type { ServiceApp } from './server';
import type { ZodTypeProvider } from './validation';

/**
 * A service's handlers, mounted by its contracts (proto/src/contracts): the
 * path, the schemas, the body limit and the access level come from the
 * contract, never from the service. A contract without a handler, or a
 * handler without a contract, stops the process here; a route registered
 * any other way stops it when the server gets ready (createServer's check).
 */

/** The schemas of a contract in Fastify's shape, so its type provider types the request and the reply. */
interface SchemaOf<C extends RouteSpec> {
  params: C['params'];
  querystring: C['query'];
  body: C['body'];
  response: C['responses'];
}

/** The caller's identity, there because the contract needs a token (signed-in, or a role); no other handler may read one. */
type IdentityOf<C extends RouteSpec> = C['access'] extends { level: infer L } ? (L extends 'signed-in' | 'role' ? Signed : Unsigned) : Signed;
interface Signed {
  auth: Identity;
}
interface Unsigned {
  auth?: never;
}

export type ContractRequest<C extends RouteSpec> = Omit<
  FastifyRequest<RouteGenericInterface, RawServerDefault, IncomingMessage, SchemaOf<C>, ZodTypeProvider>,
  'auth'
> &
  IdentityOf<C>;

export type ContractReply<C extends RouteSpec> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  ContextConfigDefault,
  SchemaOf<C>,
  ZodTypeProvider
>;

/** A page of a paged contract's list: its items, and the cursor of the next page (none on the last). */
export interface Page<T> {
  items: T;
  next: string | null | undefined;
}

/**
 * What a handler may return: a body of one of its declared answers (for a
 * paged contract, a page of its list), the reply it sent, or nothing (a
 * stream it took over; else 204).
 */
type BodyOf<C extends RouteSpec> = C['responses'] extends Record<number, ZodType>
  ? C extends { readonly paged: true }
    ? C['responses'] extends { readonly 200: infer L extends ZodType }
      ? Page<z.input<L>>
      : never
    : { [S in keyof C['responses']]: C['responses'][S] extends ZodType ? z.input<C['responses'][S]> : never }[keyof C['responses']]
  : void;

export type RouteHandler<C extends RouteSpec> = (request: ContractRequest<C>, reply: ContractReply<C>) => Promise<BodyOf<C> | ContractReply<C> | void>;

/** One handler for each contract of the table, and nothing else. */
export type Handlers<T extends RouteTable> = { readonly [K in keyof T]: RouteHandler<T[K]> };

export interface MountOptions {
  /** The bearer check of the contracts that need a token (runtime audienceAuth, or auth's own). */
  authenticate: Authenticate;
  /** The service's database: every write contract keeps its Idempotency-Key answers there (http/idempotency.ts). */
  db: SqlClient;
  /** The service's clock (the keys' lease and time to live); the process clock by default. */
  clock?: () => Date;
  /** How long a repeat waits for the first request's answer before 409 (5 s; tests shorten it). */
  idempotencyWaitMs?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `service.name` of the contract a route was mounted from (createServer's check reads it). */
    contract?: string;
    /** The runtime's own health, readiness and metrics routes. */
    runtimeRoute?: boolean;
  }
}

export class ContractMismatchError extends Error {
  override name = 'ContractMismatchError';
}

export function mountRoutes<T extends RouteTable>(app: ServiceApp, table: T, handlers: Handlers<T>, options: MountOptions): void {
  const contracts = Object.values(table) as RouteContract[];
  const extra = Object.keys(handlers).filter((name) => !(name in table));
  const missing = contracts.filter((contract) => typeof (handlers as Record<string, unknown>)[contract.name] !== 'function');
  if (extra.length > 0 || missing.length > 0) {
    throw new ContractMismatchError(
      [
        ...missing.map((c) => `contract ${c.service}.${c.name} (${c.method} ${c.path}) has no handler`),
        ...extra.map((name) => `handler ${name} has no contract`),
      ].join('; '),
    );
  }
  const gate = writeFaultGate();
  const keys = idempotency({
    db: options.db,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.idempotencyWaitMs !== undefined ? { waitMs: options.idempotencyWaitMs } : {}),
  });
  for (const contract of contracts) {
    const handler = (handlers as Record<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>>)[contract.name];
    if (!handler) continue;
    const route = routeOf(contract, handler, options, keys, gate);
    const upload = contract.upload;
    if (!upload) {
      app.route(route);
    } else if (upload.kind === 'multipart') {
      // Multipart parsing only where a contract asks for it, with that contract's limits.
      app.register(async (scope) => {
        await scope.register(multipart, { limits: upload.limits });
        scope.route(route);
      });
    } else {
      // Raw bytes of any declared type: what they are is decided by the handler decoding them.
      app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: contract.bodyLimit }, (_request, body, done) => done(null, body));
        scope.route(route);
      });
    }
  }
}

/** The contract's schemas in Fastify's shape, only those it declares (Fastify warns of a key present but undefined). */
function schemaOf(contract: RouteContract): NonNullable<RouteOptions['schema']> {
  return {
    ...(contract.params ? { params: contract.params } : {}),
    ...(contract.query ? { querystring: contract.query } : {}),
    ...(contract.body ? { body: contract.body } : {}),
    ...(contract.responses ? { response: contract.responses } : {}),
  };
}

/**
 * The status of a successful answer when the contract declares exactly one
 * (201 for a create, 202 for work accepted); undefined leaves Fastify's 200.
 * A contract with two (200 for an existing conversation, 201 for a new one)
 * leaves the choice to its handler.
 */
export function successStatusOf(contract: RouteContract): number | undefined {
  const statuses = Object.keys(contract.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return statuses.length === 1 && statuses[0] !== 200 ? statuses[0] : undefined;
}

function routeOf(
  contract: RouteContract,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  options: MountOptions,
  keys: Idempotency,
  gate: WriteFaultGate | undefined,
): RouteOptions {
  const signedIn = needsToken(contract.access);
  const role = contract.access.level === 'role' ? contract.access.role : undefined;
  const success = successStatusOf(contract);
  // Every write takes an Idempotency-Key (issue 38): a retried request answers the first's answer.
  const write = contract.method !== 'GET';
  return {
    method: contract.method,
    url: contract.path,
    bodyLimit: contract.bodyLimit,
    schema: schemaOf(contract),
    config: { contract: `${contract.service}.${contract.name}` },
    // Identity first, before the body is read or validated: a caller without a token learns nothing
    // from a 400 and makes the service parse nothing (a 100 MB upload included).
    // A staff route's role is checked there too, from what the bearer check read (issue 42): someone
    // without it is refused before anything of theirs is parsed, with the same answer on every route.
    ...(signedIn ? { onRequest: role ? [options.authenticate, requireRole(role)] : options.authenticate } : {}),
    ...(write
      ? {
          onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
            try {
              await keys.after(request, reply, payload);
            } catch (err) {
              // The answer goes out anyway; a repeat finds the claim and, once it lapses, runs afresh.
              request.log.warn({ err }, 'idempotent answer not stored');
            }
            return payload;
          },
        }
      : {}),
    handler: async (request, reply) => {
      // The identity check is the contract's, not the handler's: a signed-in handler never runs without one.
      if (signedIn && !request.auth) throw unauthorized();
      if (role && !hasRole(request.auth?.roles, role)) throw forbidden(STAFF_ONLY[role]);
      // Fault tests only: a write that asks to be held waits here, its identity already checked.
      if (write && gate && request.headers[FAULT_HOLD_HEADER] === 'write') await gate.hold();
      // A repeat of a request already answered is answered from the first, and the handler does not run.
      if (write && (await keys.before(contract, request, reply))) return reply;
      // The status of the answer is the contract's (a create's 201), unless the handler says otherwise.
      if (success !== undefined) reply.code(success);
      const result = await handler(request, reply);
      // A handler that answers nothing and sent nothing did what was asked: 204 No Content.
      if (result === undefined && !reply.sent) return reply.code(204).send();
      // A page: the items are the answer, the next page's cursor a header (absent on the last page).
      if (contract.paged && !reply.sent) {
        const page = result as Page<unknown>;
        if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
        return page.items;
      }
      return result;
    },
  };
}

/** What someone without a staff route's role is told (403). */
export const STAFF_ONLY = { moderator: 'Only moderators can do that', admin: 'Only admins can do that' } as const;

function requireRole(role: keyof typeof STAFF_ONLY) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!hasRole(request.auth?.roles, role)) throw forbidden(STAFF_ONLY[role]);
  };
}

/**
 * Fault injection for tests only (WRITE_FAULT_GATE_FILE; refused in
 * production): a write carrying `x-fault-hold: write` stops after its token
 * was checked and before its handler runs, until the gate file exists — a
 * write authenticated before something (an account's deletion) and committed
 * after it, on demand. Each held request adds a line to `<file>.held`, so the
 * test knows it is there. Without the variable the header means nothing.
 */
const FAULT_HOLD_HEADER = 'x-fault-hold';

interface WriteFaultGate {
  hold(): Promise<void>;
}

function writeFaultGate(): WriteFaultGate | undefined {
  const file = process.env.WRITE_FAULT_GATE_FILE;
  if (!file) return undefined;
  if (process.env.NODE_ENV === 'production') throw new Error('WRITE_FAULT_GATE_FILE is for fault tests only; unset it in production');
  return {
    async hold() {
      appendFileSync(`${file}.held`, '.\n');
      while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}
