import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The headers every API answer carries, like the web app's files (the
 * gateway's web.ts): nothing sniffs a JSON body into HTML, no page may frame
 * an answer, no referrer leaves with a link, and the body is no document that
 * could load anything. HSTS only where the request came over TLS (directly or
 * as the trusted proxy says): sent over plain HTTP it would mean nothing.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export const HSTS = 'max-age=31536000; includeSubDomains';

export function addSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}
