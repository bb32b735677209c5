import { z } from 'zod';
import { uuid } from './common';
import { role, roleList, ROLES } from './roles';

/**
 * Trust and safety (issue 42): the staff, and what the moderation console
 * reads and sends. Every route of it lives under /api/moderation and needs a
 * role (proto/test/contracts.test.ts holds the table to that).
 */

/** Someone holding a staff role, as the console lists them. */
export const staffMember = z.object({
  id: uuid,
  username: z.string(),
  displayName: z.string(),
  roles: roleList,
});
export type StaffMember = z.infer<typeof staffMember>;
export const staffList = z.array(staffMember);

export const staffParams = z.object({ userId: uuid });

/** PUT /api/moderation/staff/:userId: the roles the person holds from now on (none takes every role away). */
export const staffRolesRequest = z.object({
  roles: z
    .array(role, { error: 'roles must be a list of roles' })
    .max(ROLES.length, { error: 'roles must not repeat' })
    .refine((roles) => new Set(roles).size === roles.length, { error: 'roles must not repeat' }),
});
export type StaffRolesRequest = z.infer<typeof staffRolesRequest>;

/**
 * What a moderator may do to a person's account (issue 42, item 4). The
 * actions on content (dismiss, hide, restore) join these with reports; the
 * request's enums widen then, which old clients' requests still satisfy.
 */
export const ACCOUNT_ACTIONS = ['warn', 'suspend', 'ban', 'unban'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];
export const MODERATION_REASON_MAX = 1000;
/** The longest suspension a moderator can give; longer is a ban. */
export const SUSPENSION_DAYS_MAX = 365;

export const moderationActionRequest = z
  .object({
    targetType: z.literal('person', { error: 'targetType must be person' }),
    targetId: uuid,
    action: z.enum(ACCOUNT_ACTIONS, { error: `action must be one of ${ACCOUNT_ACTIONS.join(', ')}` }),
    reason: z
      .string({ error: 'Give a reason: the person is told it' })
      .trim()
      .min(1, { error: 'Give a reason: the person is told it' })
      .max(MODERATION_REASON_MAX, { error: `reason must be at most ${MODERATION_REASON_MAX} characters` }),
    days: z
      .number({ error: 'days must be a number' })
      .int({ error: 'days must be a whole number' })
      .min(1, { error: 'days must be at least 1' })
      .max(SUSPENSION_DAYS_MAX, { error: `days must be at most ${SUSPENSION_DAYS_MAX}` })
      .optional(),
  })
  .refine((body) => (body.action === 'suspend') === (body.days !== undefined), {
    error: 'days is how long a suspension lasts: required to suspend, and only then',
    path: ['days'],
  });
export type ModerationActionRequest = z.infer<typeof moderationActionRequest>;

/** One action, as the console, the audit and the person concerned see it. */
export const moderationAction = z.object({
  id: uuid,
  targetType: z.literal('person'),
  targetId: uuid,
  action: z.enum(ACCOUNT_ACTIONS),
  reason: z.string(),
  days: z.number().int().nullable(),
  /** When a suspension ends (null for the others: a ban lasts until an unban). */
  endsAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationAction = z.infer<typeof moderationAction>;
export const moderationActionList = z.array(moderationAction);

/** What sign-in answers a suspended or banned person (403), and what the web shows on its sign-in screen. */
export const ACCOUNT_BANNED = 'This account has been banned.';
export const suspendedUntil = (until: Date | string) => `This account is suspended until ${new Date(until).toISOString()}.`;
