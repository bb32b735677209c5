import { STATUS_CODES } from 'node:http';

/**
 * An expected failure with a status and a message fit for the user.
 * Handlers throw it; the one error handler turns it into the uniform body.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    /** When the client may try again (a 429 that knows it): sent as Retry-After, in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'You are not allowed to do that') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, field?: string) => new HttpError(409, message, field);
export const tooManyRequests = (message = 'Too many requests, please try again later.', retryAfterSeconds?: number) =>
  new HttpError(429, message, undefined, retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(retryAfterSeconds)));

export function statusText(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}
