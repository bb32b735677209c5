/**
 * A session's own address (issue 40): `/sessions/{id}`, which the feed's and
 * the profiles' titles, photos and times link to; `#comments` opens it with
 * its comments expanded and the newest one in view (a "commented" notification).
 */
export const SESSION_COMMENTS_HASH = '#comments';

export function sessionPath(id: string, { comments = false }: { comments?: boolean } = {}): string {
  return `/sessions/${encodeURIComponent(id)}${comments ? SESSION_COMMENTS_HASH : ''}`;
}
