import { sendJsonError } from './errors';
import { requestIdOf } from './request-id';
import { bodyLimitLookup } from '../routes';
import type { GatewayRequest, PolicyDefinition } from './types';

/** How much of a refused body is read and dropped so the client can read its 413. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** A fixed limit, or each route's own from its contract (`bodyLimit`). */
type BodyLimitAction = { maxBytes: number; fromContracts?: false } | { fromContracts: true; maxBytes?: undefined };

/** Inside a pipeline Express's `req.route` is the route the request matched: a contract's path. */
const routePathOf = (req: GatewayRequest): string | undefined => req.route?.path;

/**
 * Refuses a body larger than the route allows before it is proxied, from its
 * Content-Length (browsers always send one for files and forms). Left to the
 * service alone, an oversized upload is cut off mid-stream and the client
 * sees a broken connection (502) instead of a 413 it can explain. Bodies
 * without a length are still bounded by the service's own limit.
 */
export const bodyLimitPolicy: PolicyDefinition<BodyLimitAction> = {
  name: 'body-limit',
  schema: {
    $id: 'https://hoptrack.dev/schemas/gateway/policies/body-limit.json',
    type: 'object',
    properties: { maxBytes: { type: 'integer', minimum: 1 }, fromContracts: { type: 'boolean' } },
  },
  policy: (action) => {
    if (!action.fromContracts && !action.maxBytes) throw new Error('body-limit: give maxBytes, or fromContracts: true');
    const limitOf = action.fromContracts ? bodyLimitLookup() : () => action.maxBytes ?? 0;
    return (req, res, next) => {
      const length = Number(req.headers['content-length'] ?? 0);
      const maxBytes = limitOf(req.method ?? 'GET', routePathOf(req));
      if (!(Number.isFinite(length) && length > maxBytes)) {
        next();
        return;
      }
      // Under a megabyte (a JSON body) the figure is in kilobytes: "at most 0.1 MB" says little.
      const limit = maxBytes >= 1024 * 1024 ? `${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(maxBytes / 1024)} KB`;
      let answered = false;
      const refuse = () => {
        if (answered) return;
        answered = true;
        sendJsonError(res, 413, `${maxBytes < 1024 * 1024 ? 'Request body' : 'Upload'} is too large (at most ${limit})`, requestIdOf(req), {
          connection: 'close',
        });
      };
      // Answering while the client still sends makes the socket close under it, and the
      // client sees a reset instead of the 413. So the body is read and dropped first,
      // up to a bound: past it, the answer goes out at once and the connection closes.
      let dropped = 0;
      req.on('data', (chunk: Buffer) => {
        dropped += chunk.length;
        if (dropped > DRAIN_LIMIT_BYTES) refuse();
      });
      req.on('end', refuse);
      req.on('error', refuse);
      req.resume();
    };
  },
};
