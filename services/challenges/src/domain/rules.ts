import { CHALLENGE_KIND_NAMES, CHALLENGE_SLOW_PACE_MINUTES, type ChallengeKind } from '@hoptrack/proto';
import { identifier, joinSql, sql, type Sql } from '@hoptrack/runtime';

/** The fact `alias`'s column. */
const col = (alias: string, column: string): Sql => identifier(`${alias}.${column}`);

/**
 * Each kind's progress rule, as a count over the facts of one person in one
 * window. In each, `uc` is the user_challenges row: `uc.user_id`,
 * `uc.counts_from` and `uc.window_end`. What counts happened after the
 * person joined (issue 40: joining in the evening completed a challenge at
 * once from the afternoon's session): counts_from is the later of the day's
 * start and the join. Progress is always recomputed from the facts, never
 * added to: a replayed event changes no fact, and a deleted session (a
 * tombstoned fact) takes its part back.
 *
 * None of them counts beers or their strength: challenges reward trying,
 * visiting, sharing and pacing.
 */
const inWindow = (alias: string): Sql =>
  sql`${col(alias, 'user_id')} = uc.user_id AND NOT ${col(alias, 'deleted')} AND ${col(alias, 'created_at')} >= uc.counts_from AND ${col(alias, 'created_at')} < uc.window_end`;
/** What the person did before it counted: earlier that day too, so a style first logged before joining is not new after it. */
const before = (alias: string): Sql => sql`${col(alias, 'user_id')} = uc.user_id AND NOT ${col(alias, 'deleted')} AND ${col(alias, 'created_at')} < uc.counts_from`;

export const PROGRESS_RULES: Record<ChallengeKind, Sql> = {
  // Styles logged in the window that none of the person's earlier sessions had.
  new_styles: sql`(SELECT count(DISTINCT style) FROM session_facts s, unnest(s.beer_types) AS style
     WHERE ${inWindow('s')} AND NOT EXISTS (SELECT 1 FROM session_facts e WHERE ${before('e')} AND style = ANY(e.beer_types)))`,
  // Places (as typed) logged in the window that no earlier session was at.
  new_bar: sql`(SELECT count(DISTINCT s.place) FROM session_facts s
     WHERE ${inWindow('s')} AND s.place IS NOT NULL AND NOT EXISTS (SELECT 1 FROM session_facts e WHERE ${before('e')} AND e.place = s.place))`,
  bar_review: sql`(SELECT count(*) FROM review_facts r WHERE ${inWindow('r')})`,
  album_photo: sql`(SELECT count(*) FROM photo_facts p WHERE ${inWindow('p')})`,
  music_session: sql`(SELECT count(*) FROM session_facts s WHERE ${inWindow('s')} AND s.has_music)`,
  // At least so many minutes per beer: the slower, the better.
  slow_pace: sql`(SELECT count(*) FROM session_facts s WHERE ${inWindow('s')} AND s.beer_count > 0 AND s.duration >= ${CHALLENGE_SLOW_PACE_MINUTES}::int * s.beer_count)`,
};

/**
 * One SQL expression: the progress of `uc` in the challenge `dc`, by its kind, at most its target.
 * The kinds and the pace's minutes travel as parameters, cast to the types their literals had.
 */
export const progressSql: Sql = sql`LEAST(dc.target_value, CASE dc.challenge_type
  ${joinSql(
    CHALLENGE_KIND_NAMES.map((kind) => sql`WHEN ${kind}::text THEN ${PROGRESS_RULES[kind]}`),
    '\n  ',
  )}
  ELSE 0 END)::int`;
