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

/** Validates body, params and querystring with the route's zod schemas; unknown keys are dropped. */
export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const context = httpPart === 'querystring' ? 'query' : (httpPart ?? 'body');
  return (data: unknown) => {
    if (!isZodType(schema)) return { value: data };
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: describeIssue(result.error, context, data) };
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
