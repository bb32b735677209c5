import { z } from 'zod';
import { pageCursor, pageLimit, uuid } from './common';
import { definePush, type DeclaredPush } from './live';
import type { LiveNotificationsEvent } from './messaging';

/**
 * Notifications (issue 22; docs/decisions.md, 'Notifications'). The
 * notifications service turns the events that concern a person into an inbox
 * of grouped entries ("Bob and 3 others liked Friday pints"), one per (kind,
 * target) while it is unread or fresh, updated in place.
 */

/**
 * Every kind of notification, with what it points at, the entry it joins
 * (`group`: likes, reactions and comments on one of your sessions make one
 * entry, "Bob liked and commented on your session"), and whether its e-mail
 * is on before a person chooses. Like the events, kinds are a persisted
 * contract: later issues add kinds (issue 23 added the challenge ones), never rename one.
 */
export const NOTIFICATION_KINDS = {
  /** Someone asked to be the person's friend (target: the requester). */
  'friend.requested': { target: 'user', group: 'friend.requested', emailByDefault: true, label: 'Friend requests' },
  /** Someone accepted the person's request (target: the new friend). */
  'friend.accepted': { target: 'user', group: 'friend.accepted', emailByDefault: false, label: 'Accepted friend requests' },
  'session.liked': { target: 'session', group: 'session.activity', emailByDefault: false, label: 'Likes on your sessions' },
  'session.reacted': { target: 'session', group: 'session.activity', emailByDefault: false, label: 'Reactions to your sessions' },
  'session.commented': { target: 'session', group: 'session.activity', emailByDefault: false, label: 'Comments on your sessions' },
  /** Someone commented after the person on a session the person commented on (not theirs). */
  'comment.followed': { target: 'session', group: 'comment.followed', emailByDefault: false, label: 'Replies after your comments' },
  /** A direct message while the person had not read the conversation (target: the sender). */
  'message.received': { target: 'user', group: 'message.received', emailByDefault: false, label: 'Direct messages' },
  /** The person completed a challenge (target: the challenge). The one kind whose actor is the recipient: it is their own doing. */
  'challenge.completed': { target: 'challenge', group: 'challenge.completed', emailByDefault: false, label: 'Completed challenges' },
  /** A friend invited the person to a challenge (target: the challenge; actor: the inviter). Answering it takes it back. */
  'challenge.invited': { target: 'challenge', group: 'challenge.invited', emailByDefault: true, label: 'Challenge invitations' },
} as const satisfies Record<string, { target: NotificationTarget['type']; group: string; emailByDefault: boolean; label: string }>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export type NotificationGroup = (typeof NOTIFICATION_KINDS)[NotificationKind]['group'];
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]];
export const notificationKind = z.enum(NOTIFICATION_KIND_NAMES, { error: 'Unknown notification kind' });

export const NOTIFICATIONS_PAGE_DEFAULT = 20;
export const NOTIFICATIONS_PAGE_MAX = 50;
/** Actors named on an entry; `actorCount` has the rest ("and 3 others"). */
export const NOTIFICATION_ACTORS_SHOWN = 3;
/** Ids one `POST /api/notifications/read` may name. */
export const NOTIFICATIONS_READ_MAX = 100;

// ---- Queries and bodies ----

/**
 * The inbox, optionally narrowed: `unread=true` only the unread entries
 * (`false`: only the read ones); `kind=a,b` only the entries holding a
 * contribution of one of those kinds (a grouped entry of likes and comments
 * is in both filters). One message per problem, naming the field.
 */
export const notificationListQuery = z.object({
  cursor: pageCursor,
  limit: pageLimit(NOTIFICATIONS_PAGE_DEFAULT, NOTIFICATIONS_PAGE_MAX),
  unread: z
    .enum(['true', 'false'], { error: "unread must be 'true' or 'false'" })
    .transform((text) => text === 'true')
    .optional(),
  kind: z
    .string({ error: 'kind must be a comma-separated list of notification kinds' })
    .transform((text, ctx) => {
      const kinds = [...new Set(text.split(',').map((kind) => kind.trim()).filter((kind) => kind !== ''))];
      const known = kinds.flatMap((kind) => {
        const parsed = notificationKind.safeParse(kind);
        return parsed.success ? [parsed.data] : [];
      });
      if (kinds.length === 0 || known.length < kinds.length) {
        ctx.addIssue({ code: 'custom', message: `kind must be notification kinds separated by commas (${NOTIFICATION_KIND_NAMES.join(', ')})` });
        return z.NEVER;
      }
      return known;
    })
    .optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

/** `{ids}` marks those entries read; `{all: true}` marks every entry read. */
export const markReadBody = z.union(
  [
    z.object({
      ids: z
        .array(uuid, { error: 'ids must be a list of notification ids' })
        .min(1, { error: 'ids must name at least one notification' })
        .max(NOTIFICATIONS_READ_MAX, { error: `ids may name at most ${NOTIFICATIONS_READ_MAX} notifications` }),
    }),
    z.object({ all: z.literal(true, { error: 'all must be true' }) }),
  ],
  { error: 'Send {ids: [...]} or {all: true}' },
);
export type MarkReadBody = z.infer<typeof markReadBody>;

const kindSetting = z.object({ inApp: z.boolean({ error: 'inApp must be true or false' }), email: z.boolean({ error: 'email must be true or false' }) });
export type NotificationKindSetting = z.infer<typeof kindSetting>;

/** PUT body: the kinds to change (others keep their setting). */
export const notificationSettingsBody = z.object({
  kinds: z.partialRecord(notificationKind, kindSetting, { error: 'kinds must map notification kinds to {inApp, email}' }),
});
export type NotificationSettingsBody = z.infer<typeof notificationSettingsBody>;

/** The token of a mail's unsubscribe link (POST /api/notifications/unsubscribe, no sign-in). */
export const unsubscribeBody = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }).max(300, { error: 'Invalid unsubscribe link' }),
});
export type UnsubscribeBody = z.infer<typeof unsubscribeBody>;
export const UNSUBSCRIBED_MESSAGE = 'You will get no more notification e-mails. You can turn them back on from your notifications page.';
export const INVALID_UNSUBSCRIBE_MESSAGE = 'This unsubscribe link is not valid.';

// ---- Responses ----

export const notificationActor = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type NotificationActor = z.infer<typeof notificationActor>;

export const notificationTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), id: uuid, title: z.string().nullable(), ownerId: uuid.nullable() }),
  z.object({ type: z.literal('user'), id: uuid }),
  /** Title: the challenge's as its events named it (null if the service never heard it). */
  z.object({ type: z.literal('challenge'), id: uuid, title: z.string().nullable() }),
]);
export type NotificationTarget = z.infer<typeof notificationTarget>;

export const notification = z.object({
  id: uuid,
  /** The newest contribution's kind (the icon). */
  kind: notificationKind,
  /** Every kind the entry groups, in NOTIFICATION_KINDS order (a like and a comment: both). */
  kinds: z.array(notificationKind),
  /** The newest NOTIFICATION_ACTORS_SHOWN people, newest first. */
  actors: z.array(notificationActor),
  /** Everyone the entry groups (the people the reader may see). */
  actorCount: z.number().int(),
  target: notificationTarget,
  /** What the list shows, e.g. "Bob and 3 others liked Friday pints". */
  text: z.string(),
  /** The entry's latest activity (it moves up when someone joins the group). */
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

export const unreadCount = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCount>;

export const markReadResponse = z.object({ updated: z.number().int() });
export type MarkReadResponse = z.infer<typeof markReadResponse>;

export const notificationSettings = z.object({
  kinds: z.record(notificationKind, kindSetting.extend({ label: z.string() })),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** The notifications feature's push: the bell shows the new unread count at once, on every tab of its person. */
export const notificationsLivePushes: DeclaredPush[] = [
  definePush({
    stream: 'NOTIFICATIONS',
    event: 'notification.changed.v1',
    name: 'notifications',
    to: (data) => [data.userId],
    payload: (data): LiveNotificationsEvent => ({ unreadCount: data.unreadCount }),
  }),
];
