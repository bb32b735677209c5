import { z } from 'zod';
import { idParams, messageResponse } from '../common';
import {
  markReadBody,
  markReadResponse,
  notification,
  notificationListQuery,
  notificationSettings,
  notificationSettingsBody,
  unreadCount,
  unsubscribeBody,
} from '../notifications';
import { defineRoutes, publicAccess } from './define';

/**
 * A person's own inbox (issue 22): the list, the bell's count, marking read
 * and the per-kind settings; and the unsubscribe link of the notification mails.
 */
export const notificationsApi = defineRoutes('notifications', {
  list: {
    method: 'GET',
    path: '/api/notifications',
    paged: true,
    summary: "The viewer's notifications, newest first; only the unread ones, or those of some kinds, when asked",
    query: notificationListQuery,
    responses: { 200: z.array(notification) },
  },
  unreadCount: {
    method: 'GET',
    path: '/api/notifications/unread-count',
    summary: "The count of the viewer's unread notifications (the bell)",
    responses: { 200: unreadCount },
  },
  markRead: {
    method: 'POST',
    path: '/api/notifications/read',
    summary: "Mark some or all of the viewer's notifications read",
    body: markReadBody,
    responses: { 200: markReadResponse },
  },
  markUnread: {
    method: 'POST',
    path: '/api/notifications/:id/unread',
    summary: "Mark one of the viewer's notifications unread again",
    params: idParams,
    responses: { 200: markReadResponse },
  },
  settings: {
    method: 'GET',
    path: '/api/notifications/settings',
    summary: "The viewer's in-app and e-mail settings per kind",
    responses: { 200: notificationSettings },
  },
  updateSettings: {
    method: 'PUT',
    path: '/api/notifications/settings',
    summary: "Change the viewer's in-app and e-mail settings per kind",
    body: notificationSettingsBody,
    responses: { 200: notificationSettings },
  },
  /**
   * Public rather than signed-link: the token travels in the JSON body, not
   * the path or query, and it opens no resource, it only makes this one
   * harmless change (like the verify-email mail link). An HMAC that cannot be
   * guessed, and the service keeps no attempt limit of its own: standard rate.
   */
  unsubscribe: {
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    summary: "Turn a person's notification e-mail off from a mail's unsubscribe link",
    access: publicAccess(
      "a notification mail's unsubscribe link, opened wherever the mail is read: the HMAC-signed token in the body is the credential, and all it can do is turn that person's notification e-mail off",
    ),
    body: unsubscribeBody,
    responses: { 200: messageResponse },
  },
});
