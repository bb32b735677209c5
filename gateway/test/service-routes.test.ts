import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, type RunningProcess } from '@hoptrack/testing/processes';
import { rateLimitPrefix } from './support';

/**
 * The routing table itself: every public prefix reaches the service that owns
 * it. The services are pointed at closed ports, so the 503 names which
 * service the gateway tried — no service has to run for this.
 */
describe('routing table', () => {
  let gateway: RunningProcess;
  beforeAll(async () => {
    gateway = await startGateway({
      env: {
        AUTH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        SOCIAL_GRAPH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        MEDIA_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        PLACES_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        SESSIONS_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        MESSAGING_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        NOTIFICATIONS_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        CHALLENGES_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('routes'),
      },
    });
  });
  afterAll(() => gateway.stop());

  it.each([
    ['GET', '/api/me', 'auth'],
    ['PUT', '/api/me/profile-picture', 'auth'],
    ['PUT', '/api/privacy', 'auth'],
    ['POST', '/api/auth/login', 'auth'],
    ['GET', '/api/me/stats', 'social-graph'],
    ['GET', '/api/me/friends', 'social-graph'],
    ['GET', '/api/me/friend-requests', 'social-graph'],
    ['GET', '/api/users/search?q=ale', 'social-graph'],
    ['GET', '/api/users/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/followers', 'social-graph'],
    ['POST', '/api/friendships', 'social-graph'],
    ['PATCH', '/api/friendships/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', 'social-graph'],
    ['GET', '/api/friends/pinned', 'social-graph'],
    ['POST', '/api/friends/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/block', 'social-graph'],
    ['POST', '/api/profile-picture/upload', 'media'],
    ['PUT', '/api/media/uploads/abc.def', 'media'],
    ['GET', '/api/media/files/avatars/a/b.webp', 'media'],
    ['GET', '/api/albums', 'media'],
    ['POST', '/api/albums/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/photos', 'media'],
    ['DELETE', '/api/photos/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', 'media'],
    ['GET', '/api/bars/nearby?lat=1&lng=2', 'places'],
    ['GET', '/api/sessions?filter=all', 'sessions'],
    ['POST', '/api/sessions/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/react', 'sessions'],
    ['GET', '/api/me/sessions', 'sessions'],
    ['GET', '/api/users/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/sessions', 'sessions'],
    ['GET', '/api/users/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/stats', 'social-graph'],
    ['POST', '/api/bars/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/reviews', 'places'],
    ['POST', '/api/bars/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/reviews/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f01/helpful', 'places'],
    ['GET', '/api/beers/search?q=ipa', 'places'],
    ['GET', '/api/google-places/nearby?lat=1&lng=2', 'places'],
    ['GET', '/api/conversations', 'messaging'],
    ['PATCH', '/api/conversations/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/read', 'messaging'],
    ['GET', '/api/messages', 'messaging'],
    ['PUT', '/api/messages/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/read', 'messaging'],
    ['GET', '/api/messages/events', 'messaging'],
    ['GET', '/api/presence?ids=0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', 'messaging'],
    ['GET', '/api/notifications', 'notifications'],
    ['POST', '/api/notifications/read', 'notifications'],
    ['PUT', '/api/notifications/settings', 'notifications'],
    ['GET', '/api/challenges', 'challenges'],
    ['GET', '/api/challenges/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', 'challenges'],
    ['POST', '/api/challenges/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/join', 'challenges'],
    ['POST', '/api/challenges/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/invitations', 'challenges'],
    // Before auth's /api/me/* and social-graph's /api/users/*, as sessions' are.
    ['GET', '/api/me/challenges', 'challenges'],
    ['GET', '/api/users/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00/challenges', 'challenges'],
    ['GET', '/api/challenge-invitations', 'challenges'],
    ['PATCH', '/api/challenge-invitations/0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00', 'challenges'],
  ])('%s %s goes to %s', async (method, path, service) => {
    const res = await fetch(`${gateway.url}${path}`, { method });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toBe(`The ${service} service is unavailable`);
  });

  it('answers 413 itself for an upload over the route limit, before proxying', async () => {
    const res = await fetch(`${gateway.url}/api/media/uploads/abc.def`, { method: 'PUT', body: Buffer.alloc(5 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, message: 'Upload is too large (at most 5 MB)' });
    // At the limit it is proxied (here to a closed port: 503).
    expect((await fetch(`${gateway.url}/api/media/uploads/abc.def`, { method: 'PUT', body: Buffer.alloc(1024) })).status).toBe(503);
  });

  it('never proxies the internal upload API', async () => {
    // A proxy attempt would reach the (closed) media port and answer 503.
    expect((await fetch(`${gateway.url}/internal/uploads`, { method: 'POST' })).status).toBe(404);
    const get = await fetch(`${gateway.url}/internal/uploads`);
    expect(get.status).not.toBe(503);
    expect(get.headers.get('content-type')).not.toContain('application/json');
  });
});
