import type { Redis } from 'ioredis';

/**
 * Presence in Redis, shared by every messaging instance (issue 25, item 1).
 *
 * Keys, under `<prefix>` (`<namespace>:messaging:presence`):
 * - `conns:<userId>`  sorted set: the person's live streams (connection ids),
 *                     each scored by the time (ms) it stops counting. An open
 *                     stream is renewed by its instance's heartbeat; a closed
 *                     one is set to close + grace; a crashed instance's simply
 *                     run out.
 * - `online`          sorted set: everyone who counts as online, scored by the
 *                     latest time any of their streams counts until. The sweep
 *                     takes out whoever's time ran out, once, atomically: the
 *                     instance that took them out announces them offline.
 * - `seen:<userId>`   the last time a stream of theirs was seen alive (opened,
 *                     renewed, closed) while their Show Online Status was on:
 *                     their "last seen" once offline.
 * - `hidden`          set: people whose Show Online Status is off, as the live
 *                     feed last saw it (one instance wins each change). It only
 *                     decides who announces a change: Redis keeps nothing on
 *                     disk, so whether someone is hidden is the people table's
 *                     word (the `hidden` argument of touch and release).
 *
 * A hidden person's streams are kept in `conns` (switched on, they show online
 * at once), but neither put them in `online` nor move their `seen`: nothing
 * of the time they spent hidden is recorded, so none of it can be shown later.
 *
 * The scripts build per-person keys from the prefix, so they assume one Redis
 * (or Sentinel) rather than a cluster, which is what the deployments run.
 */

/** Where a deployment's presence lives in Redis. */
export const presencePrefix = (namespace: string): string => `${namespace}:messaging:presence`;

/**
 * KEYS: conns, online, seen. ARGV: connection id, counts-until ms, user id,
 * now ms, seen TTL ms, hidden (1 or 0). Returns 1 when the person was offline
 * and is shown.
 */
const TOUCH_SCRIPT = `
-- Streams whose time is past go (someone online for days reconnects many times).
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2] - ARGV[4] + 60000)
if ARGV[6] == '1' then return 0 end
local current = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[3]))
local ends = tonumber(ARGV[2])
if not current or current < ends then redis.call('ZADD', KEYS[2], ends, ARGV[3]) end
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
if not current or current < tonumber(ARGV[4]) then return 1 end
return 0`;

/**
 * KEYS: conns, online, seen. ARGV: connection id, close + grace ms, user id,
 * now ms, seen TTL ms, hidden (1 or 0). A stream swept already stays gone.
 */
const RELEASE_SCRIPT = `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if ARGV[6] == '1' then return 1 end
local current = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[3]))
if current and current < tonumber(ARGV[2]) then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
return 1`;

/**
 * KEYS: online. ARGV: now ms, limit, prefix. Takes out the people whose every
 * stream ran out; returns [userId, seen ms, …] for each, so exactly one
 * instance hears of each going offline.
 */
const SWEEP_SCRIPT = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local gone = {}
for _, user in ipairs(due) do
  local conns = ARGV[3] .. ':conns:' .. user
  redis.call('ZREMRANGEBYSCORE', conns, '-inf', ARGV[1])
  local left = redis.call('ZRANGE', conns, -1, -1, 'WITHSCORES')
  if left[2] then
    redis.call('ZADD', KEYS[1], left[2], user)
  else
    redis.call('ZREM', KEYS[1], user)
    table.insert(gone, user)
    table.insert(gone, redis.call('GET', ARGV[3] .. ':seen:' .. user) or '')
  end
end
return gone`;

const TOUCH = 'hoptrackPresenceTouch';
const RELEASE = 'hoptrackPresenceRelease';
const SWEEP = 'hoptrackPresenceSweep';
type Command = (...args: Array<string | number>) => Promise<unknown>;
type PresenceRedis = Redis & Record<typeof TOUCH | typeof RELEASE | typeof SWEEP, Command>;

/** "Last seen" is kept this long after someone's last stream; older is shown as never. */
const SEEN_TTL_MS = 90 * 24 * 3600 * 1000;
/** People taken out per sweep: a backlog (after an outage) drains over a few sweeps rather than in one long script. */
const SWEEP_BATCH = 500;

export interface PresenceState {
  online: boolean;
  /** When they were last seen, if offline and ever seen (within SEEN_TTL_MS). */
  lastSeenAt: Date | null;
}

export class PresenceStore {
  private readonly redis: PresenceRedis;

  constructor(
    redis: Redis,
    /** `<namespace>:messaging:presence`: deployments (and test runs) sharing a Redis stay apart. */
    private readonly prefix: string,
  ) {
    for (const [name, lua] of [
      [TOUCH, TOUCH_SCRIPT],
      [RELEASE, RELEASE_SCRIPT],
      [SWEEP, SWEEP_SCRIPT],
    ] as const) {
      if (!(name in redis)) redis.defineCommand(name, { lua, numberOfKeys: name === SWEEP ? 1 : 3 });
    }
    this.redis = redis as PresenceRedis;
  }

  private keys(userId: string): [string, string, string] {
    return [`${this.prefix}:conns:${userId}`, `${this.prefix}:online`, `${this.prefix}:seen:${userId}`];
  }

  /**
   * A stream is open (or still open: the heartbeat) until `until`; true when
   * its person had been offline. `hidden`: only the stream is kept, nothing
   * of the person's presence is recorded (and false is returned).
   */
  async touch(userId: string, connectionId: string, until: number, now: number, hidden: boolean): Promise<boolean> {
    return (await this.redis[TOUCH](...this.keys(userId), connectionId, until, userId, now, SEEN_TTL_MS, hidden ? 1 : 0)) === 1;
  }

  /** A stream closed at `now`; it counts until `until` (the grace). `hidden`: as for touch. */
  async release(userId: string, connectionId: string, until: number, now: number, hidden: boolean): Promise<void> {
    await this.redis[RELEASE](...this.keys(userId), connectionId, until, userId, now, SEEN_TTL_MS, hidden ? 1 : 0);
  }

  /** Takes out whoever's time ran out by `now`: they went offline, last seen then. */
  async sweep(now: number): Promise<Array<{ userId: string; lastSeenAt: Date | null }>> {
    const flat = (await this.redis[SWEEP](`${this.prefix}:online`, now, SWEEP_BATCH, this.prefix)) as string[];
    const gone: Array<{ userId: string; lastSeenAt: Date | null }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) gone.push({ userId: flat[i] as string, lastSeenAt: toDate(flat[i + 1]) });
    return gone;
  }

  /** Each person's state at `now` (someone never seen: offline, no last seen). */
  async states(userIds: readonly string[], now: number): Promise<Map<string, PresenceState>> {
    const result = new Map<string, PresenceState>();
    if (userIds.length === 0) return result;
    const [scores, seen] = await Promise.all([
      this.redis.zmscore(`${this.prefix}:online`, ...userIds),
      this.redis.mget(userIds.map((id) => `${this.prefix}:seen:${id}`)),
    ]);
    userIds.forEach((id, i) => {
      const until = scores[i] == null ? null : Number(scores[i]);
      const online = until !== null && until >= now;
      result.set(id, { online, lastSeenAt: online ? null : toDate(seen[i]) });
    });
    return result;
  }

  /** The person's account is erased: nothing of them stays (see forgetPresence). */
  forget(userId: string): Promise<void> {
    return forgetPresence(this.redis, this.prefix, userId);
  }

  /**
   * Records the person's Show Online Status; true when it changed from what
   * was recorded (off is recorded, on is the default), so that of all the
   * instances hearing the same snapshot exactly one announces the change.
   * Off also takes them out of `online`: no sweep will announce them offline
   * with a last seen, and no one is told they are online; `seen` stays the
   * last moment they were seen while shown.
   */
  async recordShown(userId: string, shown: boolean): Promise<boolean> {
    const key = `${this.prefix}:hidden`;
    if (shown) return (await this.redis.srem(key, userId)) === 1;
    const results = await this.redis.multi().zrem(`${this.prefix}:online`, userId).sadd(key, userId).exec();
    return results?.[1]?.[1] === 1;
  }
}

/** Every key and member that names the person (an erased account): their streams, their last seen, their place in `online` and `hidden`. */
export async function forgetPresence(redis: Redis, prefix: string, userId: string): Promise<void> {
  await redis
    .multi()
    .del(`${prefix}:conns:${userId}`, `${prefix}:seen:${userId}`)
    .zrem(`${prefix}:online`, userId)
    .srem(`${prefix}:hidden`, userId)
    .exec();
}

function toDate(ms: string | null | undefined): Date | null {
  if (!ms) return null;
  const value = Number(ms);
  return Number.isFinite(value) ? new Date(value) : null;
}
