import type { Redis } from 'ioredis';

/** A timeline entry: the session and its author, so an author's entries can be dropped without Postgres. */
export interface TimelineEntry {
  sessionId: string;
  authorId: string;
  /** createdAt in ms: the sort key. */
  score: number;
}

/** Marks a timeline as complete (rebuilt from Postgres, then kept by fan-out); +inf keeps it out of trims and reads. */
const COMPLETE = '~complete';
/** Inactive people's timelines go after two weeks; the next read rebuilds them. */
const TTL_SECONDS = 14 * 24 * 3600;

const member = (e: { authorId: string; sessionId: string }) => `${e.authorId}:${e.sessionId}`;

/**
 * Fan-out's write of one entry to many timelines in one command (KEYS: the
 * timelines; ARGV: score, member, the rank to trim up to, TTL): each gets the
 * ZADD, the trim to the cap and the EXPIRE that three pipelined commands per
 * timeline would give it, for one command's encoding, write and reply instead
 * of three per timeline (docs/benchmarks.md, fan-out). A batch is at most
 * FANOUT_BATCH timelines, so Redis runs it in well under a millisecond.
 */
const ADD_SCRIPT = `
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2])
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, ARGV[3])
  redis.call('EXPIRE', KEYS[i], ARGV[4])
end
return #KEYS`;
const ADD_COMMAND = 'hoptrackTimelineAdd';
type AddingRedis = Redis & { [ADD_COMMAND](keys: number, ...args: Array<string | number>): Promise<number> };
function parseMember(value: string, score: number): TimelineEntry | null {
  const [authorId, sessionId] = value.split(':');
  return authorId && sessionId ? { authorId, sessionId, score } : null;
}

/** Newest first by createdAt, then by session id: the one order the feed, its cursor and Postgres share. */
export const newestFirst = (a: TimelineEntry, b: TimelineEntry) => b.score - a.score || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0);
/** Strictly after `cursor` in that order. */
export const isAfter = (e: TimelineEntry, cursor: { score: number; sessionId: string }) =>
  e.score < cursor.score || (e.score === cursor.score && e.sessionId < cursor.sessionId);

/**
 * Home timelines in Redis: one sorted set per user of `<author>:<session>`
 * scored by the session's creation time, capped. Redis is a cache: a
 * timeline without its completeness mark is rebuilt from Postgres on read.
 * Fan-out writes unconditionally (ZADD is idempotent, so a redelivered event
 * adds nothing), which also means a write racing a rebuild is never lost.
 */
export class Timelines {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly cap: number,
  ) {
    // Sent by SHA (EVALSHA; ioredis loads the script on NOSCRIPT), not as script text on every call.
    if (!(ADD_COMMAND in redis)) redis.defineCommand(ADD_COMMAND, { lua: ADD_SCRIPT });
  }

  key(userId: string): string {
    return `${this.namespace}:timeline:${userId}`;
  }

  /** Adds one session to many timelines in one command, trimming each to the cap; rejects if Redis refused it. */
  async add(userIds: string[], entry: TimelineEntry): Promise<void> {
    if (userIds.length === 0) return;
    // Trim to the cap, +1 for the completeness mark.
    await (this.redis as AddingRedis)[ADD_COMMAND](userIds.length, ...userIds.map((id) => this.key(id)), entry.score, member(entry), -(this.cap + 2), TTL_SECONDS);
  }

  /** Adds many sessions to one timeline (back-fill). */
  async addMany(userId: string, entries: TimelineEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const key = this.key(userId);
    await this.redis
      .pipeline()
      .zadd(key, ...entries.flatMap((e) => [e.score, member(e)]))
      .zremrangebyrank(key, 0, -(this.cap + 2))
      .expire(key, TTL_SECONDS)
      .exec();
  }

  async remove(userIds: string[], entry: { authorId: string; sessionId: string }): Promise<void> {
    if (userIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const userId of userIds) pipeline.zrem(this.key(userId), member(entry));
    await pipeline.exec();
  }

  /** Drops every entry by `authorId` from `userId`'s timeline (unfriend, block, mute). */
  async removeAuthor(userId: string, authorId: string): Promise<void> {
    const key = this.key(userId);
    const members = await this.redis.zrange(key, 0, -1);
    const gone = members.filter((m) => m.startsWith(`${authorId}:`));
    if (gone.length > 0) await this.redis.zrem(key, ...gone);
  }

  async isComplete(userId: string): Promise<boolean> {
    return (await this.redis.zscore(this.key(userId), COMPLETE)) !== null;
  }

  /** Merges what Postgres holds (the newest `cap` visible sessions) and marks the timeline complete. */
  async rebuild(userId: string, entries: TimelineEntry[]): Promise<void> {
    const key = this.key(userId);
    await this.redis
      .multi()
      .zadd(key, '+inf', COMPLETE, ...entries.flatMap((e) => [e.score, member(e)]))
      .zremrangebyrank(key, 0, -(this.cap + 2))
      .expire(key, TTL_SECONDS)
      .exec();
  }

  async size(userId: string): Promise<number> {
    return Math.max(0, (await this.redis.zcard(this.key(userId))) - 1);
  }

  /**
   * Entries after the cursor, newest first, that pass `keep`, up to `limit`.
   * Reads in growing slices by score, then orders ties by session id in
   * memory, so a page boundary inside one millisecond loses nothing.
   */
  async page(userId: string, cursor: { score: number; sessionId: string } | null, limit: number, keep: (e: TimelineEntry) => boolean): Promise<TimelineEntry[]> {
    const key = this.key(userId);
    const out: TimelineEntry[] = [];
    let max = cursor ? String(cursor.score) : '(+inf';
    let after = cursor;
    for (;;) {
      const slice = limit * 2 + 20;
      const raw = await this.redis.zrevrangebyscore(key, max, '-inf', 'WITHSCORES', 'LIMIT', 0, slice);
      const entries: TimelineEntry[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const entry = parseMember(raw[i] ?? '', Number(raw[i + 1]));
        if (entry) entries.push(entry);
      }
      entries.sort(newestFirst);
      const fresh = after ? entries.filter((e) => isAfter(e, after as TimelineEntry)) : entries;
      for (const e of fresh) {
        if (keep(e)) out.push(e);
        if (out.length === limit) return out;
      }
      if (raw.length / 2 < slice) return out;
      const last = fresh[fresh.length - 1];
      if (!last) return out; // a whole slice inside one millisecond at the cursor: give up rather than loop
      after = last;
      max = String(last.score);
    }
  }
}
