import multipart from '@fastify/multipart';
import {
  createSessionForm,
  feedQuery,
  feedSession,
  idParams,
  NEXT_CURSOR_HEADER,
  publicSession,
  sessionListQuery,
  updateSessionForm,
} from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp, type ZodTypeProvider } from '@hoptrack/runtime';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Sessions } from '../domain/sessions';
import { decodeCursor, type Feed } from '../feed/feed';
import type { MediaClient } from '../photos/media-client';
import { readSessionForm, SESSION_FORM_LIMITS, type IncomingPhoto } from './session-form';

/** Photos of one form sent to media at the same time. */
const UPLOADS_AT_ONCE = 3;

export interface SessionRoutesDeps {
  sessions: Sessions;
  feed: Feed;
  media: MediaClient;
  authenticate: Authenticate;
}

/** /api/sessions (feed, log, edit, delete), /api/me/sessions and /api/users/{id}/sessions. */
export function sessionsRoutes(app: ServiceApp, deps: SessionRoutesDeps): void {
  const { sessions, feed, media } = deps;
  const guarded = { preHandler: deps.authenticate };
  /**
   * Stores a form's photos through media, answering their paths in the order
   * sent. A few at a time: media re-encodes each (CPU), and one person's ten
   * photos should not take every core it has. A refused photo fails the whole
   * form (no session is written); the ones stored before it are orphans, as
   * with a failed single upload.
   */
  const store = async (photos: IncomingPhoto[], request: FastifyRequest): Promise<string[]> => {
    const ownerId = authOf(request).userId;
    const paths: string[] = [];
    for (let i = 0; i < photos.length; i += UPLOADS_AT_ONCE) {
      const batch = photos.slice(i, i + UPLOADS_AT_ONCE);
      paths.push(...(await Promise.all(batch.map((p) => media.upload(p.data, p.filename, p.contentType, ownerId, request.id)))));
    }
    return paths;
  };

  app.get('/api/sessions', { ...guarded, schema: { querystring: feedQuery, response: { 200: z.array(feedSession) } } }, async (request, reply) => {
    const { filter, cursor, limit } = request.query;
    const page = await feed.read(authOf(request).userId, filter, decodeCursor(cursor), limit);
    if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.sessions;
  });
  app.get('/api/sessions/:id', { ...guarded, schema: { params: idParams, response: { 200: feedSession } } }, async (request) =>
    sessions.get(authOf(request).userId, request.params.id),
  );
  app.delete('/api/sessions/:id', { ...guarded, schema: { params: idParams } }, async (request, reply) => {
    await sessions.delete(authOf(request).userId, request.params.id, request.id);
    return reply.status(204).send();
  });
  app.get('/api/me/sessions', { ...guarded, schema: { querystring: sessionListQuery, response: { 200: z.array(feedSession) } } }, async (request) =>
    sessions.mine(authOf(request).userId, request.query),
  );
  app.get('/api/users/:id/sessions', { ...guarded, schema: { params: idParams, querystring: sessionListQuery, response: { 200: z.array(publicSession) } } }, async (request) =>
    sessions.ofUser(authOf(request).userId, request.params.id, request.query),
  );

  // The two multipart routes, with their own body limits.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await scope.register(multipart, { limits: SESSION_FORM_LIMITS });
    scope.post('/api/sessions', { ...guarded, schema: { response: { 201: feedSession } } }, async (request, reply) => {
      const { form, photos } = await readSessionForm(request, createSessionForm);
      const created = await sessions.create(authOf(request).userId, form, await store(photos, request), request.id);
      return reply.status(201).send(created);
    });
    scope.put('/api/sessions/:id', { ...guarded, schema: { params: idParams, response: { 200: feedSession } } }, async (request) => {
      const { form, photos } = await readSessionForm(request, updateSessionForm);
      const userId = authOf(request).userId;
      // Ownership first: nobody stores a file on someone else's session.
      await sessions.assertCanEdit(userId, request.params.id);
      return sessions.update(userId, request.params.id, form, await store(photos, request), request.id);
    });
  });
}
