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

type FillingRedis = Redis & { [FILL_COMMAND](...args: Array<string | number>): Promise<unknown> };

/** Defines the fill command on a client once (sent by SHA from then on: EVALSHA). */
function withFill(redis: Redis): FillingRedis {
  if (!(FILL_COMMAND in redis)) redis.defineCommand(FILL_COMMAND, { lua: FILL_SCRIPT });
  return redis as FillingRedis;
}

export interface VersionedCacheOptions<T> {
  redis: Redis;
  /** Key prefix, e.g. `<namespace>:card`; values live at `<prefix>:<id>`, versions at `<prefix>:v:<id>`. */
  prefix: string;
  /** Entries expire after this long unread-or-not: the bound on any staleness a lost invalidation could leave. */
  ttlSeconds: number;
  /** Reads the entries of `ids` from the source of truth (absent ids: nothing to cache). */
  load: (ids: readonly string[]) => Promise<Map<string, T>>;
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
  private readonly redis: FillingRedis;

  constructor(private readonly options: VersionedCacheOptions<T>) {
    this.redis = withFill(options.redis);
  }

  private valueKey(id: string): string {
    return `${this.options.prefix}:${id}`;
  }

  private versionKey(id: string): string {
    return `${this.options.prefix}:v:${id}`;
  }

  /** The entries of `ids` (those the source has), from Redis, loading and storing the missing ones. */
  async getMany(ids: readonly string[]): Promise<Map<string, T>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, T>();
    if (unique.length === 0) return found;
    const cached = await this.mget(unique.map((id) => this.valueKey(id)));
    if (!cached) return this.options.load(unique);
    const missing: string[] = [];
    unique.forEach((id, i) => {
      const text = cached[i];
      if (text == null) missing.push(id);
      else found.set(id, JSON.parse(text) as T);
    });
    if (missing.length > 0) for (const [id, value] of await this.fill(missing)) found.set(id, value);
    return found;
  }

  /** Drops the entries of `ids` and makes any fill already under way store nothing. Call after the write commits. */
  async invalidate(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of new Set(ids)) {
      // The version outlives any entry filled under the previous one.
      pipeline.incr(this.versionKey(id)).expire(this.versionKey(id), this.options.ttlSeconds * 2).del(this.valueKey(id));
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (failed) throw failed;
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
    const loaded = await this.options.load(ids);
    const keys: string[] = [];
    const args: Array<string | number> = [this.options.ttlSeconds];
    ids.forEach((id, i) => {
      const value = loaded.get(id);
      if (value === undefined) return;
      keys.push(this.valueKey(id), this.versionKey(id));
      args.push(versions[i] ?? '0', JSON.stringify(value));
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
