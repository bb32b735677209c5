import { createTokenService, DEV_SIGNING_KEY } from '@hoptrack/runtime';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A signed-in person calling an in-process service (`app.inject`), as the gateway would forward them. */
export interface InjectClient {
  id: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Clients by user id, with tokens of the development key (the services' test config trusts it) and token version 0. */
export async function injectClients(app: Pick<FastifyInstance, 'inject'>): Promise<(userId: string) => Promise<InjectClient>> {
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });
  return async (id) => {
    const authorization = `Bearer ${await tokens.sign({ userId: id, tokenVersion: 0 })}`;
    const call = (method: Method) => (url: string, body?: unknown) =>
      app.inject({ method, url, headers: { authorization }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { id, get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') };
  };
}
