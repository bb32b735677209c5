import type { NotificationKind } from '@hoptrack/proto';
import { audienceSql, identifier, sql, type Sql } from '@hoptrack/runtime';

/**
 * What of an inbox its reader may see, as SQL conditions over `notifications n`
 * (and `session_refs sr` joined on its target). Applied when an entry is
 * written and again on every read, list and count: a block, a mute, a switch
 * turned off or a profile turned private after the fact hides what it caused.
 * The arguments are the aliases of those tables in the query around.
 */
export const inboxSql = {
  /**
   * A contribution `a` to entry `n`: of a kind the reader has on in-app, by
   * nobody the reader blocked, was blocked by, or muted, and by someone known here.
   */
  actorVisible(a = 'a', n = 'n'): Sql {
    const [actor, reader, kind] = [identifier(`${a}.actor_id`), identifier(`${n}.user_id`), identifier(`${a}.kind`)];
    return sql`(NOT EXISTS (SELECT 1 FROM "notification_settings" ks WHERE ks.user_id = ${reader} AND ks.kind = ${kind} AND NOT ks.in_app)
      AND NOT ${audienceSql.blockedBetween(reader, actor)} AND NOT ${audienceSql.muted(reader, actor)}
      AND EXISTS (SELECT 1 FROM "users" actor_p WHERE actor_p."id" = ${actor}))`;
  },
  /** Entry `n` holds a visible contribution of one of `kinds` (the list's kind filter). */
  holdsKinds(kinds: readonly NotificationKind[], n = 'n'): Sql {
    return sql`EXISTS (SELECT 1 FROM "notification_actors" ka WHERE ka.notification_id = ${identifier(`${n}.id`)} AND ka.kind = ANY(${[...kinds]}::text[]) AND ${inboxSql.actorVisible('ka', n)})`;
  },
  /** Entry `n` shows: some contribution in it is visible, and a session it is about is still the reader's to see. */
  entryVisible(n = 'n', sr = 'sr'): Sql {
    return sql`(EXISTS (SELECT 1 FROM "notification_actors" va WHERE va.notification_id = ${identifier(`${n}.id`)} AND ${inboxSql.actorVisible('va', n)})
      AND (${identifier(`${sr}.session_id`)} IS NULL OR ${audienceSql.canSee(identifier(`${n}.user_id`), identifier(`${sr}.owner_id`))}))`;
  },
};
