import { audienceSql } from '@hoptrack/runtime';

/**
 * What of an inbox its reader may see, as SQL conditions over `notifications n`
 * (and `session_refs sr` joined on its target). Applied when an entry is
 * written and again on every read, list and count: a block, a mute, a switch
 * turned off or a profile turned private after the fact hides what it caused.
 */
export const inboxSql = {
  /**
   * A contribution `a` to entry `n`: of a kind the reader has on in-app, by
   * nobody the reader blocked, was blocked by, or muted, and by someone known here.
   */
  actorVisible(a = 'a', n = 'n'): string {
    const [actor, reader] = [`${a}.actor_id`, `${n}.user_id`];
    return `(NOT EXISTS (SELECT 1 FROM "notification_settings" ks WHERE ks.user_id = ${reader} AND ks.kind = ${a}.kind AND NOT ks.in_app)
      AND NOT ${audienceSql.blockedBetween(reader, actor)} AND NOT ${audienceSql.muted(reader, actor)}
      AND EXISTS (SELECT 1 FROM "users" actor_p WHERE actor_p."id" = ${actor}))`;
  },
  /** Entry `n` shows: some contribution in it is visible, and a session it is about is still the reader's to see. */
  entryVisible(n = 'n', sr = 'sr'): string {
    return `(EXISTS (SELECT 1 FROM "notification_actors" va WHERE va.notification_id = ${n}.id AND ${inboxSql.actorVisible('va', n)})
      AND (${sr}.session_id IS NULL OR ${audienceSql.canSee(`${n}.user_id`, `${sr}.owner_id`)}))`;
  },
};
