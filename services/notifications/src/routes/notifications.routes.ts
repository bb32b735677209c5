import {
  markReadBody,
  markReadResponse,
  NEXT_CURSOR_HEADER,
  notification,
  notificationListQuery,
  notificationSettings,
  notificationSettingsBody,
  unreadCount,
} from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Notifications } from '../domain/notifications';

/** A person's own inbox (issue 22): the list, the bell's count, marking read, and the per-kind settings. */
export function notificationsRoutes(app: ServiceApp, notifications: Notifications, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/notifications', { ...guarded, schema: { querystring: notificationListQuery, response: { 200: z.array(notification) } } }, async (request, reply) => {
    const page = await notifications.list(authOf(request).userId, request.query.cursor, request.query.limit);
    if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items;
  });
  app.get('/api/notifications/unread-count', { ...guarded, schema: { response: { 200: unreadCount } } }, async (request) => ({
    count: await notifications.unreadCount(authOf(request).userId),
  }));
  app.post('/api/notifications/read', { ...guarded, schema: { body: markReadBody, response: { 200: markReadResponse } } }, async (request) => ({
    updated: await notifications.markRead(authOf(request).userId, request.body, request.id),
  }));
  app.get('/api/notifications/settings', { ...guarded, schema: { response: { 200: notificationSettings } } }, async (request) =>
    notifications.settings(authOf(request).userId),
  );
  app.put('/api/notifications/settings', { ...guarded, schema: { body: notificationSettingsBody, response: { 200: notificationSettings } } }, async (request) =>
    notifications.updateSettings(authOf(request).userId, request.body, request.id),
  );
}
