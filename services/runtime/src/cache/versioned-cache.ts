import type { Redis } from 'ioredis';
import { isDependencyUnavailable } from '../http/unavailable';

/**
 * Fills many entries in one round trip, each only if its version key still
 * holds what the reader saw before it read the source. KEYS: value, version,
 * value, version, …; ARGV: ttl, then expected version and value per pair.
 */
const FILL_SCRIPT = `
local ttl = ARGV[1]
for i = 1, #KEYS, 2 do
  if (redis.call('GET', KEYS[i + 1]) or '0') == ARGV[i + 1] then
    redis.call('SET', KEYS[i], ARGV[i + 2], 'EX', ttl)
  end
end
return 0`;
const FILL_COMMAND = 'hoptrackVersionedFill';

/**
 * Drops entries and gives each a new version, atomically. A version is drawn
 * from one counter per cache (`<prefix>:vseq`, never expiring) and written
 * with a `g` so it never equals a version counted per key before (a plain
 * INCR of the version key, which came back to 1 once the key had expired):
 * a version is never handed out twice, so an entry kept in process memory
 * under a version can be trusted while Redis still holds that version.
 * Atomic, so no reader sees the new version beside the old value.
 * KEYS: counter, then version, value per entry; ARGV: the versions' ttl.
 */
const INVALIDATE_SCRIPT = `
for i = 2, #KEYS, 2 do
  local n = redis.call('INCR', KEYS[1])
  redis.call('SET', KEYS[i], 'g' .. n, 'EX', ARGV[1])
  redis.call('DEL', KEYS[i + 1])
end
return 0`;
const INVALIDATE_COMMAND = 'hoptrackVersionedInvalidate';

type ScriptedRedis = Redis & {
  [FILL_COMMAND](...args: Array<string | number>): Promise<unknown>;
  [INVALIDATE_COMMAND](...args: Array<string | number>): Promise<unknown>;
};

/** Defines the cache's commands on a client once (sent by SHA from then on: EVALSHA). */
function withScripts(redis: Redis): ScriptedRedis {
  if (!(FILL_COMMAND in redis)) redis.defineCommand(FILL_COMMAND, { lua: FILL_SCRIPT });
  if (!(INVALIDATE_COMMAND in redis)) redis.defineCommand(INVALIDATE_COMMAND, { lua: INVALIDATE_SCRIPT });
  return redis as ScriptedRedis;
}

/** What a version key holds when absent: never invalidated, or not for longer than its ttl. */
const NO_VERSION = '0';

export interface VersionedCacheOptions<T> {
  redis: Redis;
  /** Key prefix, e.g. `<namespace>:card`; values live at `<prefix>:<id>`, versions at `<prefix>:v:<id>`. */
  prefix: string;
  /** Entries expire after this long unread-or-not: the bound on any staleness a lost invalidation could leave. */
  ttlSeconds: number;
  /** Reads the entries of `ids` from the source of truth (absent ids: nothing to cache). */
  load: (ids: readonly string[]) => Promise<Map<string, T>>;
  /**
   * Entries also kept parsed in process memory (least recently used out
   * first), each under the version it was read with; 0 = none. A read then
   * asks Redis for the versions only, and the values of the entries whose
   * version moved. Values handed out from memory are shared between
   * callers: they must not be changed.
   */
  memoryEntries?: number;
}

interface Remembered<T> {
  version: string;
  value: T;
  /** performance.now() when read. */
  at: number;
}

/**
 * A read-through cache in Redis that a concurrent write cannot leave stale.
 *
 * The race it closes: a reader misses, reads the source (old state), a writer
 * commits and deletes the entry, then the reader stores what it read — the
 * old state, now cached until it expires. Here every entry has a version key:
 * `invalidate` (called after the write commits) bumps the version and deletes
 * the entry, and a reader stores what it loaded only if the version is still
 * the one it saw before loading (one Lua script, atomic). A reader that lost
 * the race stores nothing and the next read loads again.
 *
 * Redis is a cache here: when it cannot be reached, reads go to the source.
 */
export class VersionedCache<T> {
  private readonly redis: ScriptedRedis;
  /** Insertion order is recency: a hit moves its entry to the end, the first one goes when full. */
  private readonly memory = new Map<string, Remembered<T>>();
  private readonly memoryEntries: number;
  /**
   * A remembered entry is dropped after the ttl: a version key can expire
   * (2 × ttl after its last invalidation) and read as NO_VERSION again, which
   * an entry remembered before that invalidation must not match.
   */
  private readonly memoryMs: number;
  /** Reads answered from process memory and from Redis's values (tests and metrics). */
  readonly stats = { memoryHits: 0, redisHits: 0, loads: 0 };

  constructor(private readonly options: VersionedCacheOptions<T>) {
    this.redis = withScripts(options.redis);
    this.memoryEntries = options.memoryEntries ?? 0;
    this.memoryMs = options.ttlSeconds * 1000;
  }

  private counterKey(): string {
    return `${this.options.prefix}:vseq`;
  }

  private valueKey(id: string): string {
    return `${this.options.prefix}:${id}`;
  }

  private versionKey(id: string): string {
    return `${this.options.prefix}:v:${id}`;
  }

  /** The entries of `ids` (those the source has), from memory or Redis, loading and storing the missing ones. */
  async getMany(ids: readonly string[]): Promise<Map<string, T>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map<string, T>();
    return this.memoryEntries > 0 ? this.getRemembered(unique) : this.getFromRedis(unique);
  }

  private async getFromRedis(unique: string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    const cached = await this.mget(unique.map((id) => this.valueKey(id)));
    if (!cached) return this.options.load(unique);
    const missing: string[] = [];
    unique.forEach((id, i) => {
      const text = cached[i];
      if (text == null) missing.push(id);
      else found.set(id, JSON.parse(text) as T);
    });
    this.stats.redisHits += found.size;
    if (missing.length > 0) for (const [id, value] of await this.fill(missing)) found.set(id, value);
    return found;
  }

  /**
   * Versions first (short strings), then values only for what memory lacks
   * at that version, each read with its version in the same MGET (Redis
   * answers it at one instant, and an invalidation changes both at once).
   */
  private async getRemembered(unique: string[]): Promise<Map<string, T>> {
    const versions = await this.mget(unique.map((id) => this.versionKey(id)));
    if (!versions) return this.options.load(unique);
    const found = new Map<string, T>();
    const stale: string[] = [];
    const now = performance.now();
    unique.forEach((id, i) => {
      const kept = this.memory.get(id);
      if (kept && kept.version === (versions[i] ?? NO_VERSION) && now - kept.at < this.memoryMs) {
        this.memory.delete(id);
        this.memory.set(id, kept);
        found.set(id, kept.value);
      } else {
        stale.push(id);
      }
    });
    this.stats.memoryHits += found.size;
    if (stale.length === 0) return found;
    const pairs = await this.mget(stale.flatMap((id) => [this.valueKey(id), this.versionKey(id)]));
    if (!pairs) {
      for (const [id, value] of await this.options.load(stale)) found.set(id, value);
      return found;
    }
    const missing: string[] = [];
    stale.forEach((id, i) => {
      const text = pairs[2 * i];
      if (text == null) {
        missing.push(id);
        return;
      }
      const value = JSON.parse(text) as T;
      this.remember(id, pairs[2 * i + 1] ?? NO_VERSION, value, now);
      found.set(id, value);
      this.stats.redisHits += 1;
    });
    if (missing.length > 0) for (const [id, value] of await this.fill(missing)) found.set(id, value);
    return found;
  }

  private remember(id: string, version: string, value: T, at: number): void {
    this.memory.delete(id);
    this.memory.set(id, { version, value, at });
    if (this.memory.size > this.memoryEntries) {
      const oldest = this.memory.keys().next();
      if (!oldest.done) this.memory.delete(oldest.value);
    }
  }

  /** Drops the entries of `ids` and makes any fill already under way store nothing. Call after the write commits. */
  async invalidate(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const keys = [this.counterKey()];
    for (const id of new Set(ids)) {
      keys.push(this.versionKey(id), this.valueKey(id));
      // This process's copy goes at once; other processes see the new version on their next read.
      this.memory.delete(id);
    }
    // The version outlives any entry filled under the previous one.
    await this.redis[INVALIDATE_COMMAND](keys.length, ...keys, this.options.ttlSeconds * 2);
  }

  /** null when Redis cannot be reached: the caller reads the source instead. */
  private async mget(keys: string[]): Promise<Array<string | null> | null> {
    try {
      return await this.redis.mget(keys);
    } catch (err) {
      if (isDependencyUnavailable(err)) return null;
      throw err;
    }
  }

  private async fill(ids: string[]): Promise<Map<string, T>> {
    const versions = await this.mget(ids.map((id) => this.versionKey(id)));
    if (!versions) return this.options.load(ids);
    const now = performance.now();
    const loaded = await this.options.load(ids);
    this.stats.loads += loaded.size;
    const keys: string[] = [];
    const args: Array<string | number> = [this.options.ttlSeconds];
    ids.forEach((id, i) => {
      const value = loaded.get(id);
      if (value === undefined) return;
      const version = versions[i] ?? NO_VERSION;
      keys.push(this.valueKey(id), this.versionKey(id));
      args.push(version, JSON.stringify(value));
      // At least as new as that version: loaded after it was read. Should a write have moved it since, the next read sees that.
      if (this.memoryEntries > 0) this.remember(id, version, value, now);
    });
    if (keys.length > 0) {
      // Storing is an optimisation: the reader has its answer whether or not it sticks.
      await this.redis[FILL_COMMAND](keys.length, ...keys, ...args).catch((err: unknown) => {
        if (!isDependencyUnavailable(err)) throw err;
      });
    }
    return loaded;
  }
}
