import fastJson from 'fast-json-stringify';
import { z, type ZodType } from 'zod';

/**
 * Replies are written by a serializer compiled once per route from the
 * route's proto/ schema (zod → JSON Schema → fast-json-stringify), not by
 * re-validating every reply with zod and then `JSON.stringify`: a feed page
 * of twenty cards was parsed field by field on every request (issue 21).
 *
 * What the contract promised stays true: only the properties a schema names
 * are written, so a field it does not name (a password hash, a reset token)
 * still never leaves; a missing required property still fails the reply
 * (500) instead of sending half an object. What is no longer checked on the
 * way out is what the services compute themselves: string formats, enums
 * and ranges (incoming data is still validated by zod).
 *
 * A reply schema must be representable in JSON Schema: a transform in one
 * (which only parsing can run) fails the route when the service starts,
 * naming it, rather than at the first request.
 */
export function compileReplySerializer(schema: ZodType, route: string): (data: unknown) => string {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as JsonSchema;
  } catch (err) {
    throw new Error(`${route}: the reply schema cannot be compiled (${(err as Error).message}); describe the reply without transforms`, { cause: err });
  }
  delete json.$schema;
  return fastJson(nullableForSerializer(json) as Parameters<typeof fastJson>[0]);
}

type JsonSchema = { [key: string]: unknown };

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * zod writes `.nullable()` as `anyOf: [X, {type: 'null'}]`; fast-json-stringify
 * would then validate every value against both branches to pick one. The
 * same meaning in the forms it writes directly: `type: [X, 'null']` for a
 * primitive, `nullable: true` for an object or an array.
 */
function nullableForSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableForSerializer);
  if (!isSchema(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === 'properties' && isSchema(value) ? mapValues(value, nullableForSerializer) : nullableForSerializer(value);
  }
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullIndex = branches.findIndex((b) => isSchema(b) && b.type === 'null' && Object.keys(b).length === 1);
    const other = branches[1 - nullIndex];
    if (nullIndex !== -1 && isSchema(other) && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = out;
      if (PRIMITIVES.has(other.type)) return { ...rest, ...other, type: [other.type, 'null'] };
      if (other.type === 'object' || other.type === 'array') return { ...rest, ...other, nullable: true };
    }
  }
  return out;
}

function mapValues(record: JsonSchema, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
