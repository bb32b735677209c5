import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { GatewayRequest, PolicyDefinition } from './types';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Same rule as the services' runtime: anything else could smuggle junk into log lines. */
const VALID_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The id the request-id policy settled on (undefined before it ran). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers[REQUEST_ID_HEADER];
  return typeof value === 'string' && VALID_ID.test(value) ? value : undefined;
}

/**
 * Keeps a sane incoming x-request-id (a caller tracing its own request),
 * else takes the id express-gateway minted for the request's context (it
 * mints one for every request, used or not: minting a second was waste);
 * writes it on the proxied request, so the service logs it as reqId, and on
 * the response, so a user can quote it.
 */
export const requestIdPolicy: PolicyDefinition<object> = {
  name: 'request-id',
  schema: { $id: 'https://hoptrack.dev/schemas/gateway/policies/request-id.json', type: 'object', properties: {} },
  policy: () => (req: GatewayRequest, res, next) => {
    const id = requestIdOf(req) ?? req.egContext?.requestID ?? randomUUID();
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  },
};
