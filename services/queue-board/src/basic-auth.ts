import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * HTTP basic auth for one operator account. Both sides are hashed before the
 * constant-time comparison, so neither the length nor the content of the
 * password leaks through timing.
 */
export function basicAuth(user: string, password: string) {
  const expected = digest(`${user}:${password}`);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const given = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    if (given && timingSafeEqual(digest(given), expected)) return;
    request.log.warn({ user: given.split(':')[0] || undefined }, 'queue board: authentication refused');
    await reply.status(401).header('www-authenticate', 'Basic realm="Hoptrack queues", charset="UTF-8"').type('application/json').send(
      JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: 'Operator credentials required', requestId: request.id }),
    );
  };
}
