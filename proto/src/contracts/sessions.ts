import { z } from 'zod';
import { idParams } from '../common';
import { PHOTO_MAX_BYTES, SESSION_PHOTOS_MAX } from '../constants';
import {
  commentBody,
  feedQuery,
  feedSession,
  likeListQuery,
  likeResponse,
  namedPhotosAnswer,
  namedPhotosQuery,
  publicSession,
  reactionBody,
  reactionSummary,
  sessionComment,
  sessionCommentParams,
  sessionLike,
  sessionListQuery,
} from '../sessions';
import { sessionPhotoPage, sessionPhotosQuery } from '../session-photos';
import { defineRoutes, internalOnly } from './define';

/**
 * The session form (POST /api/sessions, PUT /api/sessions/:id): its text
 * fields (createSessionForm / updateSessionForm) and up to SESSION_PHOTOS_MAX
 * `sessionPhoto` files. One file part more than a session holds, so the extra
 * part reaches the service's form reader and is refused with a 400 that names
 * `sessionPhoto` (busboy's own files limit would only truncate the form
 * silently).
 */
const sessionForm = {
  kind: 'multipart',
  limits: { fileSize: PHOTO_MAX_BYTES, files: SESSION_PHOTOS_MAX + 1, fields: 20, parts: 20 + SESSION_PHOTOS_MAX + 1 },
} as const;
/** Every photo a session holds at its largest, and a megabyte for the text fields and the part headers. */
const SESSION_FORM_BODY_LIMIT = SESSION_PHOTOS_MAX * PHOTO_MAX_BYTES + 1024 * 1024;

/** A session's reactions after a change: a reaction added answers 201, one taken back 200. */
const reactions = z.array(reactionSummary);

/**
 * Beer sessions: the feed, logging and editing (a multipart form with
 * photos), the viewer's and a person's lists; likes, comments and reactions
 * (spec 7, 'Sessions').
 */
export const sessionsApi = defineRoutes('sessions', {
  feed: {
    method: 'GET',
    path: '/api/sessions',
    paged: true,
    summary: "The viewer's feed, a page at a time",
    query: feedQuery,
    responses: { 200: z.array(feedSession) },
  },
  create: {
    method: 'POST',
    path: '/api/sessions',
    summary: 'Log a session (multipart form with photos)',
    upload: sessionForm,
    bodyLimit: SESSION_FORM_BODY_LIMIT,
    responses: { 201: feedSession },
  },
  get: {
    method: 'GET',
    path: '/api/sessions/:id',
    summary: 'One session, as the viewer may see it',
    params: idParams,
    responses: { 200: feedSession },
  },
  update: {
    method: 'PUT',
    path: '/api/sessions/:id',
    summary: "Edit one's own session (multipart form with new photos)",
    params: idParams,
    upload: sessionForm,
    bodyLimit: SESSION_FORM_BODY_LIMIT,
    responses: { 200: feedSession },
  },
  delete: {
    method: 'DELETE',
    path: '/api/sessions/:id',
    summary: "Delete one's own session",
    params: idParams,
  },
  mine: {
    method: 'GET',
    path: '/api/me/sessions',
    summary: "The viewer's own sessions",
    query: sessionListQuery,
    responses: { 200: z.array(feedSession) },
  },
  ofUser: {
    method: 'GET',
    path: '/api/users/:id/sessions',
    summary: "A person's sessions, as their privacy allows",
    params: idParams,
    query: sessionListQuery,
    responses: { 200: z.array(publicSession) },
  },
  photosOf: {
    method: 'GET',
    path: '/api/users/:id/session-photos',
    summary: "A person's session photos, newest session first, as their privacy allows (the Photos screen's 'Session photos')",
    params: idParams,
    query: sessionPhotosQuery,
    responses: { 200: sessionPhotoPage },
  },
  like: {
    method: 'POST',
    path: '/api/sessions/:id/like',
    summary: 'Like a session',
    params: idParams,
    responses: { 200: likeResponse },
  },
  unlike: {
    method: 'DELETE',
    path: '/api/sessions/:id/like',
    summary: 'Take a like back',
    params: idParams,
    responses: { 200: likeResponse },
  },
  likes: {
    method: 'GET',
    path: '/api/sessions/:id/likes',
    paged: true,
    summary: "Who liked a session, a page at a time",
    params: idParams,
    query: likeListQuery,
    responses: { 200: z.array(sessionLike) },
  },
  comments: {
    method: 'GET',
    path: '/api/sessions/:id/comments',
    summary: "A session's comments",
    params: idParams,
    responses: { 200: z.array(sessionComment) },
  },
  comment: {
    method: 'POST',
    path: '/api/sessions/:id/comments',
    summary: 'Comment on a session',
    params: idParams,
    body: commentBody,
    responses: { 201: sessionComment },
  },
  editComment: {
    method: 'PATCH',
    path: '/api/sessions/:id/comments/:commentId',
    summary: "Edit a comment (its author only); it carries editedAt from then on",
    params: sessionCommentParams,
    body: commentBody,
    responses: { 200: sessionComment },
  },
  deleteComment: {
    method: 'DELETE',
    path: '/api/sessions/:id/comments/:commentId',
    summary: "Delete a comment (one's own, or any on one's own session)",
    params: sessionCommentParams,
  },
  reactions: {
    method: 'GET',
    path: '/api/sessions/:id/reactions',
    summary: "A session's reactions, counted by emoji",
    params: idParams,
    responses: { 200: reactions },
  },
  react: {
    method: 'POST',
    path: '/api/sessions/:id/react',
    summary: 'React to a session with an emoji',
    params: idParams,
    body: reactionBody,
    responses: { 201: reactions },
  },
  unreact: {
    method: 'DELETE',
    path: '/api/sessions/:id/react',
    summary: 'Take a reaction back',
    params: idParams,
    body: reactionBody,
    responses: { 200: reactions },
  },
  namedPhotos: {
    method: 'POST',
    path: '/internal/photos/named',
    summary: "Which of these stored photos a session names (media's orphan sweep asks)",
    access: internalOnly("media's orphan sweep asks which stored photos sessions still name, outside /api so only the internal network reaches it"),
    body: namedPhotosQuery,
    responses: { 200: namedPhotosAnswer },
  },
});
