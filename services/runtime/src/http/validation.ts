import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import type { z, ZodType } from 'zod';
import { compileReplySerializer } from './reply-serializer';

/**
 * Fastify type provider for zod: a route's declared schemas type its request
 * and its reply, so a handler cannot read a field that was not validated.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends ZodType ? z.input<this['schema']> : unknown;
}

/** A 400 that names the field and the reason; the error handler renders it. */
export class ValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

function isZodType(schema: unknown): schema is ZodType {
  return typeof schema === 'object' && schema !== null && 'safeParse' in schema;
}

/** zod's names of expected types that read badly in a sentence ('must be a int'). */
const EXPECTED_WORDS: Partial<Record<string, string>> = { int: 'whole number' };

/** Turns the first zod issue into a field and a message a person can read. */
export function describeIssue(error: z.ZodError, context: string, data: unknown): ValidationError {
  const issue = error.issues[0];
  if (!issue) return new ValidationError(`Invalid ${context}`, context);
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type') {
    if (!field) return new ValidationError(`Request ${context} must be a JSON object`, context);
    // zod does not keep the input; look it up to tell "missing" from "wrong type".
    const value = issue.path.reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
      data,
    );
    return new ValidationError(value === undefined ? `${field} is required` : `${field} must be a ${EXPECTED_WORDS[issue.expected] ?? issue.expected}`, field);
  }
  return new ValidationError(issue.message, field || context);
}

/**
 * Characters no text of ours may hold (issue 39): NUL (Postgres refuses it in
 * text, which answered 500) and the other C0 and C1 controls, DEL included;
 * tab, line feed and carriage return stay, for multi-line text.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Bidi embeddings, overrides and isolates: in a name they make it read as another ("Support\u202Eevil" shows reversed). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
/** Line breaks and tabs: a name is one line (it is quoted into other people's mail subjects and lists). */
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/;
/** A field that names something or someone (`name`, `displayName`, `username`…): bidi controls and line breaks are refused there. */
const NAME_FIELD = /name$/i;

/**
 * The one rule for text input, before any schema: every string of a body,
 * query or path — at any depth — without control characters, and names
 * without bidi controls. A 400 that names the field; no route can opt out.
 */
export function refusedText(data: unknown, context: string): ValidationError | null {
  const walk = (value: unknown, path: string[]): ValidationError | null => {
    if (typeof value === 'string') {
      const field = path.length > 0 ? path.join('.') : context;
      if (CONTROL_CHARACTERS.test(value)) return new ValidationError(`${field} must not contain control characters`, field);
      const key = path.at(-1) ?? '';
      if (NAME_FIELD.test(key) && BIDI_CONTROLS.test(value)) return new ValidationError(`${field} must not contain text-direction controls`, field);
      if (NAME_FIELD.test(key) && LINE_BREAKS.test(value)) return new ValidationError(`${field} must be one line`, field);
      return null;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const found = walk(item, [...path, String(i)]);
        if (found) return found;
      }
      return null;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const found = walk(item, [...path, key]);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(data, []);
}

/** Input against its schema, after the text rule: the value, or the 400 to answer. */
export function parseInput<S extends ZodType>(schema: S, data: unknown, context: string): { value: z.output<S> } | { error: ValidationError } {
  const refused = refusedText(data, context);
  if (refused) return { error: refused };
  const result = schema.safeParse(data);
  return result.success ? { value: result.data } : { error: describeIssue(result.error, context, data) };
}

/** Validates body, params and querystring with the route's zod schemas; unknown keys are dropped. */
export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const context = httpPart === 'querystring' ? 'query' : (httpPart ?? 'body');
  return (data: unknown) => {
    if (!isZodType(schema)) return { value: data };
    return parseInput(schema, data, context);
  };
};

/**
 * Replies go through their declared schema too, compiled once per route
 * (reply-serializer.ts): a field the contract does not name (a password
 * hash, a reset token) can never leak by accident.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url, httpStatus }) => {
  if (!isZodType(schema)) return (data: unknown) => JSON.stringify(data);
  return compileReplySerializer(schema, `${method} ${url} ${httpStatus}`);
};
