import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { allContracts, api, DEFAULT_BODY_LIMIT, defineRoutes, needsToken, paramsOf, SERVICE_NAMES, type RouteContract } from '../src/index';

/**
 * Issue 37: the contract table is the API. These are the rules a table must
 * keep for the gateway, the services and the web client to be derived from
 * it without surprises.
 */

const contracts = allContracts();
const key = (c: RouteContract) => `${c.method} ${c.path}`;

/** The keys of a zod object schema (params), or none. */
function keysOf(schema: ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** A template as Express and Fastify match it: a `:param` is one segment, `*` the rest. */
function matcher(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

describe('the contract table', () => {
  it('holds every service, each under its own name', () => {
    expect(contracts.length).toBeGreaterThan(90);
    expect(new Set(contracts.map((c) => c.service))).toEqual(new Set(SERVICE_NAMES));
    for (const table of Object.values(api)) {
      const services = new Set(Object.values(table).map((c) => (c as RouteContract).service));
      expect(services.size).toBe(1);
    }
  });

  it('names each endpoint once', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const c of contracts) {
      const other = seen.get(key(c));
      if (other) twice.push(`${key(c)}: ${other} and ${c.service}.${c.name}`);
      seen.set(key(c), `${c.service}.${c.name}`);
    }
    expect(twice).toEqual([]);
  });

  it('routes /api only, and never an internal contract under it', () => {
    const wrong = contracts.filter((c) => (c.access.level === 'internal') === c.path.startsWith('/api/')).map((c) => `${key(c)} (${c.access.level})`);
    expect(wrong).toEqual([]);
  });

  it('gives every opened route a reason', () => {
    const silent = contracts.filter((c) => !needsToken(c.access) && !(c.access.reason.trim().length > 20)).map(key);
    expect(silent).toEqual([]);
  });

  it('keeps the staff routes under /api/moderation, and every route there behind a role (issue 42)', () => {
    const wrong = contracts
      .filter((c) => (c.access.level === 'role') !== c.path.startsWith('/api/moderation/'))
      .map((c) => `${key(c)} (${c.access.level})`);
    expect(wrong).toEqual([]);
  });

  it("validates every path parameter with the contract's params schema, and no other", () => {
    const wrong: string[] = [];
    for (const c of contracts) {
      const inPath = paramsOf(c.path).sort();
      const inSchema = keysOf(c.params).sort();
      if (inPath.join() !== inSchema.join()) wrong.push(`${key(c)}: path ${inPath.join(',') || '-'}, schema ${inSchema.join(',') || '-'}`);
    }
    expect(wrong).toEqual([]);
  });

  it("sends no concrete path of one service's contract to another service's template of the same method", () => {
    // The gateway mounts the services' endpoints one after another: a template that matches
    // another service's static path would take its requests.
    const clashes: string[] = [];
    for (const a of contracts) {
      if (paramsOf(a.path).length > 0) continue;
      for (const b of contracts) {
        if (b.service !== a.service && b.method === a.method && matcher(b.path).test(a.path)) clashes.push(`${key(a)} (${a.service}) matches ${key(b)} (${b.service})`);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('bounds every body: JSON at the default, uploads at what they declare', () => {
    for (const c of contracts) {
      if (c.upload) expect(c.bodyLimit, key(c)).toBeGreaterThan(DEFAULT_BODY_LIMIT);
      else expect(c.bodyLimit, key(c)).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT);
    }
  });

  it('pages only lists: a paged contract answers an array at 200 and takes a cursor (and a list that takes a cursor is paged)', () => {
    const paged = contracts.filter((c) => c.paged);
    expect(paged.length).toBeGreaterThanOrEqual(7);
    for (const c of paged) {
      const list = c.responses?.[200];
      expect(list?.safeParse([]).success, `${key(c)} answers a list`).toBe(true);
      expect(keysOf(c.query), `${key(c)} takes a cursor`).toContain('cursor');
    }
    for (const c of contracts.filter((c) => keysOf(c.query).includes('cursor'))) expect(c.paged, `${key(c)} takes a cursor but is not paged`).toBe(true);
  });

  it('is deny-by-default: a contract that names no access is signed-in', () => {
    const table = defineRoutes('places', { quiet: { method: 'GET', path: '/api/quiet', summary: 'says nothing of its access' } });
    expect(table.quiet.access).toEqual({ level: 'signed-in' });
    expect(() => defineRoutes('places', { both: { method: 'POST', path: '/api/x', summary: 'x', body: keysOf as unknown as ZodType, upload: { kind: 'raw' } } })).toThrow(
      /a JSON body or an upload, not both/,
    );
  });
});
