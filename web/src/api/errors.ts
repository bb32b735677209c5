import type { ErrorBody } from '@hoptrack/proto';

/**
 * Every answer that is not OK, as the client throws it: the status, and what
 * the shared error body (proto's `errorBody`) says — its `message`, the
 * `field` a form can point at, the `requestId` the logs know it by. When the
 * body is not that JSON (a proxy's page, nothing at all), the message is the
 * status text and `fromServer` is false.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly field?: string;
  readonly requestId?: string;
  /** The message is the server's own (its error body), not the status text. */
  readonly fromServer: boolean;

  constructor(status: number, message: string, details: { field?: string; requestId?: string; fromServer?: boolean } = {}) {
    super(message);
    this.status = status;
    this.field = details.field;
    this.requestId = details.requestId;
    this.fromServer = details.fromServer ?? false;
  }
}

/** The ApiError of a non-OK response, its body read. */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  const body = shownError(parseJson(text));
  const requestId = body?.requestId ?? res.headers.get('x-request-id') ?? undefined;
  if (!body) return new ApiError(res.status, res.statusText || String(res.status), { requestId });
  return new ApiError(res.status, body.message, { field: body.field, requestId, fromServer: true });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The fields of proto's `errorBody` the web uses, checked by hand: the schema
 * would bring zod (and every schema of the index) into the first screen,
 * which needs none of it (web/e2e/speed.test.ts).
 */
function shownError(body: unknown): Pick<ErrorBody, 'message' | 'field' | 'requestId'> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, field, requestId } = body as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  return {
    message,
    ...(typeof field === 'string' ? { field } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/** The HTTP status of a failed call, if it is one. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}

export type ShownError = Pick<ErrorBody, 'message' | 'field'>;

/** `message` (and `field`) of a failed call whose body was the shared error JSON. */
export function serverError(error: unknown): ShownError | undefined {
  if (!(error instanceof ApiError) || !error.fromServer) return undefined;
  return error.field === undefined ? { message: error.message } : { message: error.message, field: error.field };
}

/** What a toast shows for a failed call: the server's message, else the screen's fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  return serverError(error)?.message || fallback;
}

/** The call got no answer at all (offline, the connection dropped, nothing listening): fetch's TypeError, not an ApiError. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}
