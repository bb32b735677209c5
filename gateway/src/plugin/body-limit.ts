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
 * A body without a length is read here, whole, when the route takes at most
 * this much (JSON bodies); a route that takes more (uploads) must be sent
 * with its length (411), so the gateway never holds a large body in memory.
 */
const HOLD_UNLENGTHED_BYTES = 1024 * 1024;

/**
 * Refuses a body larger than the route allows before it is proxied: from its
 * Content-Length (browsers always send one for files and forms), or, for a
 * body sent without one (chunked), by counting it as it arrives. Left to the
 * service alone, an oversized body is cut off mid-stream and the client
 * sees a broken connection (a reset or a 502) instead of a 413 it can explain
 * (issue 39: a chunked 2 MB body to auth, social-graph or places).
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
      const maxBytes = limitOf(req.method ?? 'GET', routePathOf(req));
      // Under a megabyte (a JSON body) the figure is in kilobytes: "at most 0.1 MB" says little.
      const limit = maxBytes >= 1024 * 1024 ? `${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(maxBytes / 1024)} KB`;
      const tooLarge = () => sendJsonError(res, 413, `${maxBytes < 1024 * 1024 ? 'Request body' : 'Upload'} is too large (at most ${limit})`, requestIdOf(req), { connection: 'close' });
      const declared = req.headers['content-length'];
      if (declared === undefined && req.headers['transfer-encoding'] !== undefined) {
        if (maxBytes > HOLD_UNLENGTHED_BYTES) {
          drainThen(req, () => sendJsonError(res, 411, 'Send uploads with a Content-Length', requestIdOf(req), { connection: 'close' }));
          return;
        }
        holdBody(req, maxBytes, () => next(), tooLarge);
        return;
      }
      const length = Number(declared ?? 0);
      if (!(Number.isFinite(length) && length > maxBytes)) {
        next();
        return;
      }
      drainThen(req, tooLarge);
    };
  },
};

/**
 * Answering while the client still sends makes the socket close under it, and
 * the client sees a reset instead of the answer. So the body is read and
 * dropped first, up to a bound: past it, the answer goes out at once and the
 * connection closes.
 */
function drainThen(req: GatewayRequest, answer: () => void): void {
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    answer();
  };
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT_BYTES) once();
  });
  req.on('end', once);
  req.on('error', once);
  req.resume();
}

/**
 * Reads a body sent without a length, counting it: within `maxBytes` it is
 * kept for the proxy (`heldBody`) and the pipeline goes on; past it, the rest
 * is drained and the request answered 413, never proxied.
 */
function holdBody(req: GatewayRequest, maxBytes: number, proceed: () => void, tooLarge: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  let done = false;
  const finish = (action: () => void) => {
    if (done) return;
    done = true;
    action();
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) over = true;
    if (!over) chunks.push(chunk);
    else if (size > DRAIN_LIMIT_BYTES) finish(tooLarge);
  });
  req.on('end', () =>
    finish(() => {
      if (over) {
        tooLarge();
        return;
      }
      req.heldBody = Buffer.concat(chunks);
      proceed();
    }),
  );
  req.on('error', () => finish(() => undefined));
}
