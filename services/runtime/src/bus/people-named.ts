/**
 * The ids an event's data names, for its outbox row's `people` column (issue
 * 41): an erasure deletes the rows naming the person through the column's GIN
 * index (audience/erased.ts, forgetEventsNaming), at a cost that follows the
 * person's events, not the outbox's length.
 *
 * Every uuid anywhere in the data's text, also inside a longer string (a
 * file key under a person's id): the strpos over the payload that the index
 * replaced found those too, and so does the erasure search. The event types
 * about an erasure are not left out (unlike the inbox guard's idsMentioned):
 * auth's user.deleted.v1 rows name the person and go with them at the scrub.
 * The migration that added the column (runtime migrations/outbox-people)
 * fills it for older rows with the same pattern over the same text.
 */
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export function peopleNamed(data: unknown): string[] {
  const text = JSON.stringify(data) ?? '';
  return [...new Set(Array.from(text.matchAll(UUID_IN_TEXT), (m) => m[0].toLowerCase()))];
}
