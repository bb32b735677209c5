import { uuidFromBytes, uuidToBytes } from '@hoptrack/runtime';
import type { Redis } from 'ioredis';
import type { SessionsConfig } from '../config';

/** A timeline entry: the session and its author, so an author's entries can be dropped without Postgres. */
export interface TimelineEntry {
  sessionId: string;
  authorId: string;
  /** createdAt in ms: the sort key. */
  score: number;
}

/** Marks a timeline as complete (rebuilt from Postgres, then kept by fan-out); +inf keeps it out of trims and reads. */
const COMPLETE = '~complete';
/**
 * Marks a timeline being rebuilt: it exists from before the rebuild's read of
 * Postgres, so a fan-out that runs during the read writes into it (fan-out
 * writes only timelines that exist) instead of being lost. At -inf, out of
 * reads; the rebuild takes it out. Short-lived should the rebuild die.
 */
const BUILDING = '~building';
const BUILDING_TTL_SECONDS = 300;
/** Redis's default zset-max-listpack-entries: at or under it a sorted set is one compact listpack. */
const LISTPACK_ENTRIES = 128;
const DAY = 24 * 3600;

/**
 * A member is the session's 16 bytes then the author's (32 bytes, where
 * `<author>:<session>` as text took 73, over the listpack's 64-byte limit).
 * Session first: Redis orders equal scores by member, so its trims drop the
 * oldest in the feed's own order (time, then session id; bytes and hex text
 * compare alike), and what a capped timeline keeps is always a prefix of the
 * feed, which older pages continue from Postgres without a gap.
 */
const ENTRY_BYTES = 32;
export const memberOf = (e: { authorId: string; sessionId: string }): Buffer => Buffer.concat([uuidToBytes(e.sessionId), uuidToBytes(e.authorId)]);
/** An entry's author and session; null for the marks (shorter than an entry). */
export function parseMember(member: Buffer): { authorId: string; sessionId: string } | null {
  if (member.length !== ENTRY_BYTES) return null;
  return { sessionId: uuidFromBytes(member.subarray(0, 16)), authorId: uuidFromBytes(member.subarray(16)) };
}
/** What every member of `authorId`'s ends with (removeAuthorFrom). */
const authorSuffix = (authorId: string): Buffer => uuidToBytes(authorId);

/**
 * Fan-out's write of one entry to many timelines in one command (KEYS: the
 * timelines; ARGV: score, member, the rank to trim up to): each that exists
 * gets the ZADD and the trim to the cap, for one command's encoding, write and
 * reply instead of two per timeline (docs/benchmarks.md, fan-out). A timeline
 * that does not exist is left alone: its person has not read their feed for
 * the activity window (or it was evicted), and their next read rebuilds it
 * from Postgres, so an inactive person costs no memory and no writes. The TTL
 * is not touched: only reading keeps a timeline. A batch is at most
 * FANOUT_BATCH timelines, so Redis runs it in well under a millisecond.
 */
const ADD_SCRIPT = `
local written = 0
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2])
    redis.call('ZREMRANGEBYRANK', KEYS[i], 0, ARGV[3])
    written = written + 1
  end
end
return written`;

/**
 * Many entries into one timeline (KEYS[1]; ARGV: the trim rank, '1' for a
 * rebuild, its TTL, the listpack limit, then score/member pairs): a back-fill
 * writes only a timeline that exists, a rebuild also marks it complete and
 * sets its TTL. Merging up to a cap's worth into a full timeline passes
 * zset-max-listpack-entries on the way, and Redis never turns a sorted set
 * back into a listpack when it shrinks; written anew (DEL, one ZADD) it is
 * one again, for about a fifth of the memory (docs/benchmarks.md, timelines).
 */
const MERGE_SCRIPT = `
local key = KEYS[1]
local rebuild = ARGV[2] == '1'
if not rebuild and redis.call('EXISTS', key) == 0 then return 0 end
if #ARGV > 4 then redis.call('ZADD', key, unpack(ARGV, 5)) end
if rebuild then
  redis.call('ZADD', key, '+inf', '${COMPLETE}')
  redis.call('ZREM', key, '${BUILDING}')
end
redis.call('ZREMRANGEBYRANK', key, 0, ARGV[1])
if redis.call('OBJECT', 'ENCODING', key) ~= 'listpack' and redis.call('ZCARD', key) <= tonumber(ARGV[4]) then
  local all = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  local args = {}
  for i = 1, #all, 2 do
    args[#args + 1] = all[i + 1]
    args[#args + 1] = all[i]
  end
  local ttl = redis.call('PTTL', key)
  redis.call('DEL', key)
  redis.call('ZADD', key, unpack(args))
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
if rebuild then redis.call('EXPIRE', key, ARGV[3]) end
return 1`;

/**
 * A feed read's check (KEYS[1]; ARGV: the TTL, the TTL under which it is
 * renewed): 1 when the timeline is complete, 0 when it must be rebuilt. A
 * complete one read gets its TTL back, but at most once a day (when less than
 * TTL − a day is left), so reading is a write only once a day per person.
 */
const TOUCH_SCRIPT = `
if not redis.call('ZSCORE', KEYS[1], '${COMPLETE}') then return 0 end
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return 1`;

/**
 * An author's entries out of a batch of timelines (KEYS; ARGV[1] the
 * author's 16 bytes: a member is 32 bytes, session then author). Returns how
 * many went. One call reads each timeline where the client would read it and
 * send a ZREM back; a batch is bounded (REMOVE_AUTHOR_KEYS) so it holds Redis
 * for milliseconds, not for a celebrity's whole audience.
 */
const REMOVE_AUTHOR_SCRIPT = `
local author = ARGV[1]
local removed = 0
for i = 1, #KEYS do
  local key = KEYS[i]
  if redis.call('TYPE', key).ok == 'zset' then
    for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
      if #member == 32 and string.sub(member, 17) == author then
        removed = removed + redis.call('ZREM', key, member)
      end
    end
  end
end
return removed`;
/** Timelines per removal call: at the 800-entry cap, about 80,000 members read in one call. */
const REMOVE_AUTHOR_KEYS = 100;

const ADD_COMMAND = 'hoptrackTimelineAdd';
const REMOVE_AUTHOR_COMMAND = 'hoptrackTimelineRemoveAuthor';
const MERGE_COMMAND = 'hoptrackTimelineMerge';
const TOUCH_COMMAND = 'hoptrackTimelineTouch';
type Scripted = Redis & {
  [ADD_COMMAND](keys: number, ...args: Array<string | number | Buffer>): Promise<number>;
  [MERGE_COMMAND](keys: number, ...args: Array<string | number | Buffer>): Promise<number>;
  [TOUCH_COMMAND](keys: number, ...args: Array<string | number>): Promise<number>;
  [REMOVE_AUTHOR_COMMAND](keys: number, ...args: Array<string | Buffer>): Promise<number>;
};

/** Newest first by createdAt, then by session id: the one order the feed, its cursor and Postgres share. */
export const newestFirst = (a: TimelineEntry, b: TimelineEntry) => b.score - a.score || (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0);
/** Strictly after `cursor` in that order. */
export const isAfter = (e: TimelineEntry, cursor: { score: number; sessionId: string }) =>
  e.score < cursor.score || (e.score === cursor.score && e.sessionId < cursor.sessionId);

export interface TimelineOptions {
  /** Entries kept; at most LISTPACK_ENTRIES − 2 keeps the set a listpack (the mark, and one entry more while a write trims). */
  cap: number;
  /** A timeline nobody read for this long is gone (its TTL); the next read rebuilds it. */
  activeDays: number;
}

/**
 * Home timelines in Redis: one sorted set per person of 32-byte members
 * (session id, author id) scored by the session's creation time, capped, kept
 * only for people who read their feed in the last `activeDays` (the key's
 * TTL, renewed by reading). Redis is a cache: a missing timeline, or one
 * without its completeness mark, is rebuilt from Postgres on read, so
 * eviction (allkeys-lru on a Redis of its own, TIMELINE_REDIS_URL) is safe.
 * Fan-out writes only timelines that exist (ZADD is idempotent, so a
 * redelivered event adds nothing); a rebuild creates its timeline before it
 * reads Postgres, so a write racing it is never lost.
 */
export class Timelines {
  private readonly redis: Scripted;
  private readonly cap: number;
  private readonly ttlSeconds: number;

  constructor(
    redis: Redis,
    private readonly namespace: string,
    options: TimelineOptions,
  ) {
    // Sent by SHA (EVALSHA; ioredis loads the script on NOSCRIPT), not as script text on every call.
    if (!(ADD_COMMAND in redis)) redis.defineCommand(ADD_COMMAND, { lua: ADD_SCRIPT });
    if (!(MERGE_COMMAND in redis)) redis.defineCommand(MERGE_COMMAND, { lua: MERGE_SCRIPT });
    if (!(TOUCH_COMMAND in redis)) redis.defineCommand(TOUCH_COMMAND, { lua: TOUCH_SCRIPT });
    if (!(REMOVE_AUTHOR_COMMAND in redis)) redis.defineCommand(REMOVE_AUTHOR_COMMAND, { lua: REMOVE_AUTHOR_SCRIPT });
    this.redis = redis as Scripted;
    this.cap = options.cap;
    this.ttlSeconds = options.activeDays * DAY;
  }

  key(userId: string): string {
    return `${this.namespace}:timeline:${userId}`;
  }

  /** The rank trims go up to: the newest `cap` entries and the completeness mark stay. */
  private get trimRank(): number {
    return -(this.cap + 2);
  }

  /** Adds one session to the live timelines among `userIds` in one command, trimming each to the cap; rejects if Redis refused it. */
  async add(userIds: string[], entry: TimelineEntry): Promise<void> {
    if (userIds.length === 0) return;
    await this.redis[ADD_COMMAND](userIds.length, ...userIds.map((id) => this.key(id)), entry.score, memberOf(entry), this.trimRank);
  }

  /** Adds many sessions to one timeline if it is live (back-fill); an absent one gets them when rebuilt. */
  async addMany(userId: string, entries: TimelineEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.merge(userId, entries, false);
  }

  private merge(userId: string, entries: TimelineEntry[], rebuild: boolean): Promise<number> {
    const pairs = entries.flatMap((e) => [e.score, memberOf(e)]);
    return this.redis[MERGE_COMMAND](1, this.key(userId), this.trimRank, rebuild ? '1' : '0', this.ttlSeconds, LISTPACK_ENTRIES, ...pairs);
  }

  async remove(userIds: string[], entry: { authorId: string; sessionId: string }): Promise<void> {
    if (userIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const userId of userIds) pipeline.zrem(this.key(userId), memberOf(entry));
    await pipeline.exec();
  }

  /** Drops every entry by `authorId` from `userId`'s timeline (unfriend, block, mute). */
  async removeAuthor(userId: string, authorId: string): Promise<void> {
    await this.removeAuthorFrom([userId], authorId);
  }

  /** Drops every entry by `authorId` from each of `userIds`' timelines (an erasure: their followers'); resolves how many went. */
  async removeAuthorFrom(userIds: readonly string[], authorId: string): Promise<number> {
    const author = authorSuffix(authorId);
    let removed = 0;
    for (let i = 0; i < userIds.length; i += REMOVE_AUTHOR_KEYS) {
      const keys = userIds.slice(i, i + REMOVE_AUTHOR_KEYS).map((id) => this.key(id));
      removed += await this.redis[REMOVE_AUTHOR_COMMAND](keys.length, ...keys, author);
    }
    return removed;
  }

  /** Deletes `userId`'s own timeline (an erasure). */
  async drop(userId: string): Promise<void> {
    await this.redis.del(this.key(userId));
  }

  async isComplete(userId: string): Promise<boolean> {
    return (await this.redis.zscore(this.key(userId), COMPLETE)) !== null;
  }

  /** A feed read: whether the timeline is complete, renewing its TTL at most once a day. */
  async touch(userId: string): Promise<boolean> {
    return (await this.redis[TOUCH_COMMAND](1, this.key(userId), this.ttlSeconds, this.ttlSeconds - DAY)) === 1;
  }

  /**
   * Rebuilds a timeline: `read` (the newest `cap` visible sessions, from
   * Postgres) runs only once the timeline exists, so fan-out writes made
   * meanwhile land in it and are merged with what was read.
   */
  async rebuild(userId: string, read: () => Promise<TimelineEntry[]>): Promise<void> {
    const key = this.key(userId);
    await this.redis.multi().zadd(key, '-inf', BUILDING).expire(key, BUILDING_TTL_SECONDS, 'NX').exec();
    await this.merge(userId, await read(), true);
  }

  async size(userId: string): Promise<number> {
    return Math.max(0, (await this.redis.zcard(this.key(userId))) - 1);
  }

  /** The entries, oldest first, as `<author>:<session>` (tests, and people reading Redis by hand). */
  async members(userId: string): Promise<string[]> {
    const raw = await this.redis.zrangeBuffer(this.key(userId), 0, -1);
    return raw.flatMap((m) => {
      const entry = parseMember(m);
      return entry ? [`${entry.authorId}:${entry.sessionId}`] : [];
    });
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
      const raw = await this.redis.zrevrangebyscoreBuffer(key, max, '-inf', 'WITHSCORES', 'LIMIT', 0, slice);
      const entries: TimelineEntry[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const member = parseMember(raw[i] as Buffer);
        if (member) entries.push({ ...member, score: Number((raw[i + 1] as Buffer).toString()) });
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

/** The timelines of a process: on TIMELINE_REDIS_URL's connection, with the configured cap and activity window. */
export function timelinesFor(redis: Redis, config: Pick<SessionsConfig, 'BUS_NAMESPACE' | 'TIMELINE_CAP' | 'TIMELINE_ACTIVE_DAYS'>): Timelines {
  return new Timelines(redis, config.BUS_NAMESPACE, { cap: config.TIMELINE_CAP, activeDays: config.TIMELINE_ACTIVE_DAYS });
}
