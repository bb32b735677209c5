import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type PresenceEntry, type UserSnapshot } from '@hoptrack/proto';
import { anyErased, erasedHash, type Bus, type Logger, type SqlClient } from '@hoptrack/runtime';
import { presenceRepository } from '../repositories/presence.repository';
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

/**
 * Presence (issue 25, item 1): someone is online while at least one of their
 * live streams is open on any instance, and for a grace after the last one
 * closed. This instance records its own streams in the shared PresenceStore,
 * renews them on a heartbeat, and sweeps out people whose time ran out; each
 * change is announced once, by the instance that made it, to the friends who
 * may see it (every instance's live feed writes it to the streams it holds).
 */
export class Presence {
  /** This instance's open streams: connection id → user id. */
  private readonly local = new Map<string, string>();
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
    void this.touch(userId, connectionId);
  }

  /** It closed: it counts for the grace still, then the sweep (here, soon after the grace) takes its person out if nothing else is open. */
  closed(userId: string, connectionId: string): void {
    if (!this.local.delete(connectionId)) return;
    const now = this.clock();
    this.options.store.release(userId, connectionId, now + this.options.graceMs, now).catch((err: unknown) => this.failed(err, 'release'));
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
   * A user snapshot arrived (every instance hears it): if it turned Show
   * Online Status off, friends are told the person is offline with no last
   * seen; if on again, their current state. One instance wins the change.
   */
  async snapshot(user: UserSnapshot): Promise<void> {
    try {
      // A late snapshot of an erased person must not put them back in `hidden`.
      if (await anyErased(this.options.db, [user.id])) return;
      if (!(await this.options.store.recordShown(user.id, user.showOnlineStatus))) return;
      // The snapshot is newer than the people table may be yet (another consumer applies it): the switch is taken from it.
      if (!user.showOnlineStatus) {
        await this.announce(user.id, { online: false, lastSeenAt: null }, { ignoreSwitch: true });
        return;
      }
      const state = (await this.options.store.states([user.id], this.clock())).get(user.id);
      if (state) await this.announce(user.id, { online: state.online, lastSeenAt: state.lastSeenAt?.toISOString() ?? null }, { ignoreSwitch: true });
    } catch (err) {
      this.failed(err, 'switch');
    }
  }

  /** One heartbeat: renew this instance's streams, then sweep. Exposed for tests. */
  async tick(): Promise<void> {
    await this.dropErased();
    await Promise.all([...this.local].map(([connectionId, userId]) => this.touch(userId, connectionId)));
    await this.sweep();
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

  private async touch(userId: string, connectionId: string): Promise<void> {
    const now = this.clock();
    try {
      const cameOnline = await this.options.store.touch(userId, connectionId, now + 3 * this.options.heartbeatMs, now);
      // Closed meanwhile: release() has set its grace, nothing to announce from here.
      if (cameOnline && this.local.has(connectionId)) await this.announce(userId, { online: true, lastSeenAt: null });
    } catch (err) {
      this.failed(err, 'touch');
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
