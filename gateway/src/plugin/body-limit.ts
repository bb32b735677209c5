import { sendJsonError } from './errors';
import { requestIdOf } from './request-id';
import type { PolicyDefinition } from './types';

interface BodyLimitAction {
  maxBytes: number;
}

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
    properties: { maxBytes: { type: 'integer', minimum: 1 } },
    required: ['maxBytes'],
  },
  policy: (action) => (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(length) && length > action.maxBytes) {
      const megabytes = Math.round((action.maxBytes / (1024 * 1024)) * 10) / 10;
      sendJsonError(res, 413, `Upload is too large (at most ${megabytes} MB)`, requestIdOf(req), { connection: 'close' });
      return;
    }
    next();
  },
};
