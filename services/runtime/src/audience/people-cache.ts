import type { UserSnapshot } from '@hoptrack/proto';
import type { Redis } from 'ioredis';
import type { SqlClient } from '../db/sql';
import { isDependencyUnavailable } from '../http/unavailable';
import { peopleByIds, type Person } from './people';
import { revokedDevicesOf } from './revoked-devices';

/**
 * Stores each entry unless Redis holds one at least as new, by the people
 * table's rule (runtime/src/db/snapshot.ts): a higher version wins; two
 * unversioned entries (0) are ordered by updatedAt. Values are
 * `<version>|<updatedAt ms>|<json>`, so the comparison reads no JSON.
 * KEYS: the people's keys; ARGV: ttl, then version, stamp and JSON per key.
 */
const PUT_NEWER_SCRIPT = `
local ttl = ARGV[1]
for i = 1, #KEYS do
  local version = tonumber(ARGV[3 * i - 1])
  local stamp = tonumber(ARGV[3 * i])
  local current = redis.call('GET', KEYS[i])
  local newer = not current
  if current then
    local held, heldStamp = string.match(current, '^(%d+)|(%d+)|')
    held = tonumber(held)
    newer = held < version or (version == 0 and held == 0 and tonumber(heldStamp) < stamp)
  end
  if newer then
    redis.call('SET', KEYS[i], ARGV[3 * i - 1] .. '|' .. ARGV[3 * i] .. '|' .. ARGV[3 * i + 1], 'EX', ttl)
  end
end
return 0`;
const PUT_NEWER_COMMAND = 'hoptrackPutNewerVersionedPerson';
const TTL_SECONDS = 24 * 3600;

type PeopleRedis = Redis & { [PUT_NEWER_COMMAND](...args: Array<string | number>): Promise<unknown> };

/**
 * What the hot paths read of a person: the token version (every request) and
 * what a card shows (names and pictures). No bio, no dates: a feed page decodes
 * dozens of these, and parsing them was the sessions service's largest cost
 * (docs/benchmarks.md).
 */
export type CachedPerson = Pick<Person, 'id' | 'username' | 'displayName' | 'avatar' | 'profilePicture' | 'tokenVersion'> & {
  /** The staff roles (issue 42), every request's role check; absent for the many who hold none, so a card decodes no more. */
  roles?: Person['roles'];
  /** A suspension's end (ISO) and a ban (issue 42), every request's token check; absent when none. */
  suspendedUntil?: string;
  banned?: true;
};

const slim = (p: Person): CachedPerson => ({
  id: p.id,
  username: p.username,
  displayName: p.displayName,
  avatar: p.avatar,
  profilePicture: p.profilePicture,
  tokenVersion: p.tokenVersion,
  ...(p.roles.length > 0 ? { roles: p.roles } : {}),
  ...(p.suspendedUntil ? { suspendedUntil: p.suspendedUntil.toISOString() } : {}),
  ...(p.banned ? { banned: true as const } : {}),
});
const decode = (text: string): CachedPerson => JSON.parse(text.slice(text.indexOf('|', text.indexOf('|') + 1) + 1)) as CachedPerson;

/** The person a user snapshot describes (the people table's columns, without the e-mail address). */
export function personOfSnapshot(user: UserSnapshot): Person {
  const { email: _email, createdAt, updatedAt, version, roles, suspendedUntil, banned, ...person } = user;
  return {
    ...person,
    roles: roles ?? [],
    suspendedUntil: suspendedUntil ? new Date(suspendedUntil) : null,
    banned: banned ?? false,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
    version: version ?? 0,
  };
}

/**
 * The people table of one service, cached in Redis for its hot paths (every
 * request's token-version check, every feed card's names and pictures).
 *
 * Kept current without invalidation races: snapshots only ever replace older
 * ones (by version, like the table itself). The audience consumer writes
 * each snapshot here as it applies it — before its transaction commits and
 * before the event is acknowledged — so once a password reset's barrier has
 * passed, the cache already holds the new token version; a reader filling a
 * miss from the table can only store what is at least as new as what is there.
 * When Redis cannot be reached, reads go to the table.
 */
export class PeopleCache {
  private readonly redis: PeopleRedis;

  constructor(
    redis: Redis,
    /** `<namespace>:<service>`: each service caches its own table. */
    private readonly prefix: string,
    private readonly db: SqlClient,
  ) {
    if (!(PUT_NEWER_COMMAND in redis)) redis.defineCommand(PUT_NEWER_COMMAND, { lua: PUT_NEWER_SCRIPT });
    this.redis = redis as PeopleRedis;
  }

  private revokedKey(deviceId: string): string {
    return `${this.prefix}:revoked-device:${deviceId}`;
  }

  /**
   * The person and whether their device `deviceId` was signed out, in one
   * round trip: what every request's check reads. A device's entry is
   * written with the sign-out (before its event is acknowledged) and lives
   * until the device's tokens expire; the person's entry and the devices'
   * live in the same Redis, so when the person's is found, a missing device
   * entry means "not signed out". When the person's is missing (expired, or
   * Redis lost its data) both come from the tables, the devices' stored again.
   */
  async tokenState(userId: string, deviceId: string | undefined): Promise<{ person: CachedPerson | null; revoked: boolean }> {
    let cached: Array<string | null>;
    try {
      cached = await this.redis.mget(deviceId ? [this.key(userId), this.revokedKey(deviceId)] : [this.key(userId)]);
    } catch (err) {
      if (!isDependencyUnavailable(err)) throw err;
      const person = (await peopleByIds(this.db, [userId])).get(userId);
      return { person: person ? slim(person) : null, revoked: deviceId !== undefined && (await revokedDevicesOf(this.db, userId)).some((d) => d.deviceId === deviceId) };
    }
    const [personText, revokedText] = cached;
    if (personText != null) return { person: decode(personText), revoked: revokedText != null };
    const person = await this.get(userId);
    // Someone not heard of yet has signed no device out: a sign-out comes after the registration on the same stream.
    const revoked = person ? await revokedDevicesOf(this.db, userId) : [];
    await Promise.all(revoked.map((d) => this.revokeDevice(d.deviceId, d.expiresAt))).catch((err: unknown) => {
      if (!isDependencyUnavailable(err)) throw err;
    });
    return { person, revoked: deviceId !== undefined && revoked.some((d) => d.deviceId === deviceId) };
  }

  /** A device signed out, until its tokens expire (the audience consumer, on user.device.revoked.v1). Fails if Redis does. */
  async revokeDevice(deviceId: string, expiresAt: Date): Promise<void> {
    const ms = expiresAt.getTime() - Date.now();
    if (ms > 0) await this.redis.set(this.revokedKey(deviceId), '1', 'PX', ms);
  }

  private key(id: string): string {
    // `personv`: the entries hold a version since issue 38; the older `person` ones expire unread.
    return `${this.prefix}:personv:${id}`;
  }

  /** The people of `ids` the service knows (someone not heard of yet is absent). */
  async getMany(ids: readonly string[]): Promise<Map<string, CachedPerson>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    let cached: Array<string | null>;
    try {
      cached = await this.redis.mget(unique.map((id) => this.key(id)));
    } catch (err) {
      if (isDependencyUnavailable(err)) return new Map([...(await peopleByIds(this.db, unique))].map(([id, p]) => [id, slim(p)]));
      throw err;
    }
    const found = new Map<string, CachedPerson>();
    const missing: string[] = [];
    unique.forEach((id, i) => {
      const text = cached[i];
      if (text == null) missing.push(id);
      else found.set(id, decode(text));
    });
    if (missing.length > 0) {
      const loaded = await peopleByIds(this.db, missing);
      for (const [id, person] of loaded) found.set(id, slim(person));
      await this.store([...loaded.values()]).catch((err: unknown) => {
        if (!isDependencyUnavailable(err)) throw err;
      });
    }
    return found;
  }

  async get(id: string): Promise<CachedPerson | null> {
    return (await this.getMany([id])).get(id) ?? null;
  }

  /** Stores what the table now holds (or is about to): the audience consumer's write. Fails if Redis does. */
  async put(person: Person): Promise<void> {
    await this.store([person]);
  }

  /** An erased person's entry (the audience consumer, on user.deleted.v1). Fails if Redis does. */
  async forget(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  private async store(people: Person[]): Promise<void> {
    if (people.length === 0) return;
    const args: Array<string | number> = [TTL_SECONDS];
    for (const person of people) args.push(person.version, person.updatedAt.getTime(), JSON.stringify(slim(person)));
    await this.redis[PUT_NEWER_COMMAND](people.length, ...people.map((p) => this.key(p.id)), ...args);
  }
}
