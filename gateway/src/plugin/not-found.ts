import { pathOf, sendJsonError } from './errors';
import { requestIdOf } from './request-id';
import type { PolicyDefinition } from './types';

/**
 * The last /api pipeline's answer: a JSON 404 instead of Express's HTML
 * "Cannot GET", so the web app shows a readable message for a path no
 * service claims.
 */
export const apiNotFoundPolicy: PolicyDefinition<object> = {
  name: 'api-not-found',
  schema: { $id: 'https://hoptrack.dev/schemas/gateway/policies/api-not-found.json', type: 'object', properties: {} },
  policy: () => (req, res) => {
    sendJsonError(res, 404, `No API route for ${req.method ?? 'GET'} ${pathOf(req.originalUrl)}`, requestIdOf(req));
  },
};
