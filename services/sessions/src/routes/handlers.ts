import { createSessionForm, updateSessionForm, type sessionsApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { Interactions } from '../domain/interactions';
import type { SessionPhotos } from '../domain/session-photos';
import type { Sessions } from '../domain/sessions';
import { decodeCursor, type Feed } from '../feed/feed';
import type { Db } from '../db';
import type { MediaClient } from '../photos/media-client';
import { namedPhotos } from '../photos/named-photos';
import { readSessionForm, type IncomingPhoto } from './session-form';

/** Photos of one form sent to media at the same time. */
const UPLOADS_AT_ONCE = 3;

export interface SessionsHandlersDeps {
  sessions: Sessions;
  feed: Feed;
  media: MediaClient;
  interactions: Interactions;
  /** A person's session photos (the Photos screen's 'Session photos'). */
  sessionPhotos: SessionPhotos;
  /** For the internal question of which stored photos a session names. */
  db: Db;
}

/** The sessions service's handlers, one per contract of `sessionsApi` (proto/src/contracts/sessions.ts). */
export function sessionsHandlers(deps: SessionsHandlersDeps): Handlers<typeof sessionsApi> {
  const { sessions, feed, media, interactions, sessionPhotos, db } = deps;
  /**
   * Stores a form's photos through media, answering their paths in the order
   * sent. A few at a time: media re-encodes each (CPU), and one person's ten
   * photos should not take every core it has. A refused photo fails the whole
   * form (no session is written); the ones stored before it are orphans, as
   * with a failed single upload.
   */
  const store = async (photos: IncomingPhoto[], ownerId: string, requestId: string): Promise<string[]> => {
    const paths: string[] = [];
    for (let i = 0; i < photos.length; i += UPLOADS_AT_ONCE) {
      const batch = photos.slice(i, i + UPLOADS_AT_ONCE);
      paths.push(...(await Promise.all(batch.map((p) => media.upload(p.data, p.filename, p.contentType, ownerId, requestId)))));
    }
    return paths;
  };

  return {
    // ---- Sessions: /api/sessions, /api/me/sessions, /api/users/:id/sessions ----
    feed: async (request) => {
      const { filter, cursor, limit } = request.query;
      const page = await feed.read(request.auth.userId, filter, decodeCursor(cursor), limit);
      return { items: page.sessions, next: page.next };
    },
    create: async (request) => {
      const { form, photos } = await readSessionForm(request, createSessionForm);
      const userId = request.auth.userId;
      return sessions.create(userId, form, await store(photos, userId, request.id), request.id);
    },
    get: async (request) => sessions.get(request.auth.userId, request.params.id),
    update: async (request) => {
      const { form, photos } = await readSessionForm(request, updateSessionForm);
      const userId = request.auth.userId;
      // Ownership first: nobody stores a file on someone else's session.
      await sessions.assertCanEdit(userId, request.params.id);
      return sessions.update(userId, request.params.id, form, await store(photos, userId, request.id), request.id);
    },
    delete: async (request) => sessions.delete(request.auth.userId, request.params.id, request.id),
    mine: async (request) => sessions.mine(request.auth.userId, request.query),
    ofUser: async (request) => sessions.ofUser(request.auth.userId, request.params.id, request.query),
    photosOf: async (request) => sessionPhotos.of(request.auth.userId, request.params.id, request.query),

    // ---- Likes, comments and reactions on a session (spec 7, 'Sessions') ----
    like: async (request) => interactions.like(request.auth.userId, request.params.id, request.id),
    unlike: async (request) => interactions.unlike(request.auth.userId, request.params.id, request.id),
    likes: async (request) => {
      const page = await interactions.likes(request.auth.userId, request.params.id, request.query.cursor, request.query.limit);
      return { items: page.likes, next: page.next };
    },
    comments: async (request) => interactions.comments(request.auth.userId, request.params.id),
    comment: async (request) => interactions.comment(request.auth.userId, request.params.id, request.body.content, request.id),
    editComment: async (request) =>
      interactions.editComment(request.auth.userId, request.params.id, request.params.commentId, request.body.content, request.id),
    deleteComment: async (request) => interactions.deleteComment(request.auth.userId, request.params.id, request.params.commentId, request.id),
    reactions: async (request) => interactions.reactions(request.auth.userId, request.params.id),
    react: async (request) => interactions.react(request.auth.userId, request.params.id, request.body.emoji, request.id),
    unreact: async (request) => interactions.unreact(request.auth.userId, request.params.id, request.body.emoji, request.id),

    // ---- Internal: media's orphan sweep ----
    namedPhotos: async (request) => ({ named: await namedPhotos(db, request.body.keys) }),
  };
}
