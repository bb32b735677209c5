import { STATUS_CODES, type ServerResponse } from 'node:http';

/**
 * Answers with the uniform error body of proto's `errorBody`
 * ({statusCode, error, message, requestId}), the same shape the services
 * use, so the web app handles a gateway error like any other.
 */
export function sendJsonError(
  res: ServerResponse,
  statusCode: number,
  message: string,
  requestId: string | undefined,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, requestId });
  res.writeHead(statusCode, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** The path of a request without its query string (which may carry tokens). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
