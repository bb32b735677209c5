import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type PresenceEntry, type UserSnapshot } from '@hoptrack/proto';
import { anyErased, erasedHash, type Bus, type Logger, type SqlClient } from '@hoptrack/runtime';
import { presenceRepository, type OnlineSwitch } from '../repositories/presence.repository';
import { visiblePresence } from './audience';
import type { PresenceStore } from './store';

export interface PresenceOptions {
  store: PresenceStore;
  db: SqlClient;
  bus: Bus;
  /** How long someone still counts as online after their last stream closed. */
  graceMs: number;
  /** How often this instance renews its streams and sweeps; a stream not renewed for three of these runs out. */
  heartbeatMs: number;
  logger: Logger;
  clock?: () => number;
}

/** The subject presence changes travel on: core NATS, no stream (see 'presence.changed.v1'). */
export const presenceSubject = (namespace: string): string => subjectFor(namespace, 'presence.changed.v1');

/** What orders two snapshots of a person (the runtime's newerSnapshot rule). */
type Versioned = Pick<OnlineSwitch, 'version' | 'updatedAt'>;

/** A snapshot's Show Online Status, as this instance heard it. */
type HeardSwitch = Omit<OnlineSwitch, 'id'>;

/**
 * Whether `a` is a newer snapshot than `b`, as the people table decides when
 * it applies one (services/runtime db/snapshot.ts): a higher version; between
 * two without versions, a later updatedAt. The same snapshot is not newer.
 */
function isNewer(a: Versioned, b: Versioned | undefined): boolean {
  if (!b) return true;
  if (a.version !== b.version) return a.version > b.version;
  return a.version === 0 && a.updatedAt.getTime() > b.updatedAt.getTime();
}

/**
 * Presence (issue 25, item 1): someone is online while at least one of their
 * live streams is open on any instance, and for a grace after the last one
 * closed. This instance records its own streams in the shared PresenceStore,
 * renews them on a heartbeat, and sweeps out people whose time ran out; each
 * change is announced once, by the instance that made it, to the friends who
 * may see it (every instance's live feed writes it to the streams it holds).
 *
 * While someone's Show Online Status is off, their streams are kept but
 * nothing of their presence is recorded (issue 39, finding 11): no time they
 * spent hidden can later show as their last seen. Whether they are hidden is
 * the people table's word, read on each heartbeat (see hiddenAmong).
 */
export class Presence {
  /** This instance's open streams: connection id → user id. */
  private readonly local = new Map<string, string>();
  /** Switches heard in snapshots that the people table may not hold yet, by user id (see hiddenAmong). */
  private readonly heard = new Map<string, HeardSwitch>();
  private readonly clock: () => number;
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(private readonly options: PresenceOptions) {
    this.clock = options.clock ?? Date.now;
    this.logger = options.logger.child({ component: 'presence' });
  }

  /** Renews and sweeps on the heartbeat until stop(). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.heartbeatMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }

  /** A live stream of `userId` opened on this instance. */
  opened(userId: string, connectionId: string): void {
    this.local.set(connectionId, userId);
    void this.touchOpened(userId, connectionId);
  }

  /** It closed: it counts for the grace still, then the sweep (here, soon after the grace) takes its person out if nothing else is open. */
  closed(userId: string, connectionId: string): void {
    if (!this.local.delete(connectionId)) return;
    void this.release(userId, connectionId, this.clock());
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      void this.sweep();
    }, this.options.graceMs + 50);
    timer.unref();
    this.pending.add(timer);
  }

  /**
   * The person's account was erased (user.deleted.v1, heard by every instance):
   * this instance stops renewing their streams (the hub closes them), and
   * their keys go, so no heartbeat or sweep brings them back.
   */
  async erased(userId: string): Promise<void> {
    for (const [connectionId, owner] of this.local) if (owner === userId) this.local.delete(connectionId);
    this.heard.delete(userId);
    try {
      await this.options.store.forget(userId);
    } catch (err) {
      this.failed(err, 'erase');
    }
  }

  /** The presence of `ids` the viewer may see; the others are left out (hidden and unknown look alike). */
  async view(viewerId: string, ids: readonly string[]): Promise<PresenceEntry[]> {
    const visible = [...(await visiblePresence(this.options.db, viewerId, ids))];
    const states = await this.options.store.states(visible, this.clock());
    return visible.flatMap((userId) => {
      const state = states.get(userId);
      return state ? [{ userId, online: state.online, lastSeenAt: state.lastSeenAt?.toISOString() ?? null }] : [];
    });
  }

  /**
   * Two people just became friends (every instance hears it): each one's
   * presence, for the other's open streams, so both dots show at once. Taken
   * from the store and the switch, not from the friendship in the graph
   * table, which another consumer of the same event may not have written yet.
   * Nothing for someone hidden or never seen.
   */
  async befriended(a: string, b: string): Promise<Array<{ to: string; entry: PresenceEntry }>> {
    try {
      const hidden = await this.hiddenAmong([a, b]);
      const shown = [a, b].filter((userId) => !hidden.has(userId));
      const states = await this.options.store.states(shown, this.clock());
      return shown.flatMap((userId) => {
        const state = states.get(userId);
        const entry = state && { userId, online: state.online, lastSeenAt: state.lastSeenAt?.toISOString() ?? null };
        return entry ? [{ to: userId === a ? b : a, entry }] : [];
      });
    } catch (err) {
      this.failed(err, 'befriend');
      return [];
    }
  }

  /**
   * A user snapshot arrived (every instance hears it): if it turned Show
   * Online Status off, friends are told the person is offline with no last
   * seen; if on again, online when a stream of theirs is open, else their
   * last seen from before they hid. One instance wins the change.
   */
  async snapshot(user: UserSnapshot): Promise<void> {
    // Heard before any wait: a heartbeat from here on takes the switch from it.
    if (!this.hear(user)) return;
    try {
      // A late snapshot of an erased person must not put them back in `hidden`.
      if (await anyErased(this.options.db, [user.id])) {
        this.heard.delete(user.id);
        return;
      }
      // The snapshot is newer than the people table may be yet (another consumer applies it): the switch is taken from it.
      if (user.showOnlineStatus) await this.switchedOn(user.id);
      else await this.switchedOff(user.id);
    } catch (err) {
      this.failed(err, 'switch');
    }
  }

  /** One heartbeat: renew this instance's streams, then sweep. Exposed for tests. */
  async tick(): Promise<void> {
    await this.dropErased();
    const streams = [...this.local];
    // The people of the switches heard are asked about too: those the table holds by now are forgotten.
    const hidden = await this.hiddenAmong([...streams.map(([, userId]) => userId), ...this.heard.keys()]);
    await Promise.all(streams.map(([connectionId, userId]) => this.touch(userId, connectionId, hidden.has(userId))));
    await this.sweep();
  }

  /** Keeps the snapshot's switch until the people table holds it; false when a newer snapshot was heard already. */
  private hear(user: UserSnapshot): boolean {
    const heard: HeardSwitch = { shown: user.showOnlineStatus, version: user.version ?? 0, updatedAt: new Date(user.updatedAt) };
    if (!isNewer(heard, this.heard.get(user.id))) return false;
    this.heard.set(user.id, heard);
    return true;
  }

  /** The switch went off: out of `online` (the store), and friends are told offline with no last seen. */
  private async switchedOff(userId: string): Promise<void> {
    if (await this.options.store.recordShown(userId, false)) await this.announce(userId, { online: false, lastSeenAt: null }, { ignoreSwitch: true });
  }

  /**
   * The switch went on: this instance's streams of theirs count at once, so
   * friends see them online rather than a stale last seen (the touch that
   * brings them online announces it). With none open anywhere, the winning
   * instance announces them offline, last seen as before they hid.
   */
  private async switchedOn(userId: string): Promise<void> {
    const streams = [...this.local].filter(([, owner]) => owner === userId);
    await Promise.all(streams.map(([connectionId]) => this.touch(userId, connectionId, false)));
    if (!(await this.options.store.recordShown(userId, true))) return;
    const state = (await this.options.store.states([userId], this.clock())).get(userId);
    if (state && !state.online) await this.announce(userId, { online: false, lastSeenAt: state.lastSeenAt?.toISOString() ?? null }, { ignoreSwitch: true });
  }

  /**
   * Of `userIds`, those whose Show Online Status is off, in one query: the
   * people table's word (the audience consumer keeps it, so it outlives a
   * Redis restart, unlike `hidden`), unless this instance heard a snapshot
   * the table does not hold yet. Someone the table does not know yet counts
   * as hidden, and so does everyone when it cannot be read: nothing is
   * recorded that the switch may not allow.
   */
  private async hiddenAmong(userIds: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return new Set();
    try {
      const rows = new Map((await presenceRepository.switchesOf(this.options.db, unique)).map((row) => [row.id, row]));
      return new Set(unique.filter((userId) => !this.showsNow(userId, rows.get(userId))));
    } catch (err) {
      this.failed(err, 'switch check');
      return new Set(unique);
    }
  }

  /** The newer of the table's row and the switch heard; a heard one the table holds by now (or that names no one it knows) is forgotten. */
  private showsNow(userId: string, row: OnlineSwitch | undefined): boolean {
    const heard = this.heard.get(userId);
    if (row && heard && isNewer(heard, row)) return heard.shown;
    this.heard.delete(userId);
    return row?.shown ?? false;
  }

  /**
   * Streams of people erased meanwhile are not renewed (the live feed's
   * user.deleted.v1 normally got there first; this covers a feed that missed it).
   */
  private async dropErased(): Promise<void> {
    const users = [...new Set(this.local.values())];
    if (users.length === 0) return;
    try {
      const byHash = new Map(users.map((id) => [erasedHash(id), id]));
      for (const hash of await presenceRepository.erasedAmong(this.options.db, [...byHash.keys()])) {
        const userId = byHash.get(hash);
        if (userId) await this.erased(userId);
      }
    } catch (err) {
      this.failed(err, 'erased check');
    }
  }

  /** A stream just opened counts once its person's switch is known. */
  private async touchOpened(userId: string, connectionId: string): Promise<void> {
    const hidden = await this.hiddenAmong([userId]);
    // Closed while the switch was read: release() has had its say, a touch now would count the stream again.
    if (this.local.has(connectionId)) await this.touch(userId, connectionId, hidden.has(userId));
  }

  private async touch(userId: string, connectionId: string, hidden: boolean): Promise<void> {
    const now = this.clock();
    try {
      const cameOnline = await this.options.store.touch(userId, connectionId, now + 3 * this.options.heartbeatMs, now, hidden);
      // A switch turned on in a snapshot the table may not hold yet: the audience is taken from the snapshot.
      const ignoreSwitch = this.heard.get(userId)?.shown === true;
      // Closed meanwhile: release() has set its grace, nothing to announce from here.
      if (cameOnline && this.local.has(connectionId)) await this.announce(userId, { online: true, lastSeenAt: null }, { ignoreSwitch });
    } catch (err) {
      this.failed(err, 'touch');
    }
  }

  /** The stream closed at `closedAt`: it counts for the grace, as its person's switch allows. */
  private async release(userId: string, connectionId: string, closedAt: number): Promise<void> {
    const hidden = await this.hiddenAmong([userId]);
    try {
      await this.options.store.release(userId, connectionId, closedAt + this.options.graceMs, closedAt, hidden.has(userId));
    } catch (err) {
      this.failed(err, 'release');
    }
  }

  private async sweep(): Promise<void> {
    try {
      const gone = await this.options.store.sweep(this.clock());
      await Promise.all(gone.map(({ userId, lastSeenAt }) => this.announce(userId, { online: false, lastSeenAt: lastSeenAt?.toISOString() ?? null })));
    } catch (err) {
      this.failed(err, 'sweep');
    }
  }

  private async announce(userId: string, state: Omit<PresenceEntry, 'userId'>, options: { ignoreSwitch?: boolean } = {}): Promise<void> {
    const audience = await presenceRepository.audienceOf(this.options.db, userId, options);
    if (audience.length === 0) return;
    const data: EventData<'presence.changed.v1'> = { userId, ...state, audience };
    const envelope: EventEnvelope<'presence.changed.v1'> = { id: randomUUID(), type: 'presence.changed.v1', occurredAt: new Date(this.clock()).toISOString(), data };
    this.options.bus.nc.publish(presenceSubject(this.options.bus.namespace), JSON.stringify(envelope));
  }

  /** Presence is best effort: Redis or Postgres away costs the dots, never a stream or a request. */
  private failed(err: unknown, step: string): void {
    this.logger.warn({ err, step }, 'presence update failed');
  }
}
