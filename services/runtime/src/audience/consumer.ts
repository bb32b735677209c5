import { streamNameFor, type EventEnvelope, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { Bus } from '../bus/connection';
import type { RunningConsumer } from '../bus/consumer';
import { publishNow } from '../bus/publish-now';
import type { ConsumerGap } from '../bus/positions';
import { startReadModels, type ReadModelHandlers } from '../bus/read-models';
import type { SqlClient, TransactionalSqlClient } from '../db/sql';
import { audienceInbox, forgetPerson } from './erased';
import { rebuildGraph } from './graph-snapshot';
import { applyPerson, type PersonExtras } from './people';
import { personOfSnapshot, type PeopleCache } from './people-cache';
import { revokeDevice } from './revoked-devices';
import type { AudiencePart } from './tables';

const exec = (tx: SqlClient, sql: string, ...values: unknown[]) => tx.$executeRawUnsafe(sql, ...values).then(() => undefined);

const unfollowBoth = (tx: SqlClient, a: string, b: string) =>
  exec(tx, 'DELETE FROM "follows" WHERE ("follower_id" = $1::uuid AND "followee_id" = $2::uuid) OR ("follower_id" = $2::uuid AND "followee_id" = $1::uuid)', a, b);

/**
 * How social-graph's events change the graph tables. Every handler is an
 * upsert or a delete, so a redelivered or replayed event changes nothing.
 */
export const graphHandlers = {
  'social.friendship.requested.v1': (data, tx) =>
    exec(tx, 'INSERT INTO "follows" ("follower_id", "followee_id") VALUES ($1::uuid, $2::uuid) ON CONFLICT DO NOTHING', data.requesterId, data.recipientId),
  'social.friendship.accepted.v1': (data, tx) =>
    exec(
      tx,
      `INSERT INTO "follows" ("follower_id", "followee_id", "is_friend") VALUES ($1::uuid, $2::uuid, true), ($2::uuid, $1::uuid, true)
       ON CONFLICT ("follower_id", "followee_id") DO UPDATE SET "is_friend" = true`,
      data.requesterId,
      data.recipientId,
    ),
  'social.friendship.rejected.v1': (data, tx) =>
    exec(tx, 'DELETE FROM "follows" WHERE "follower_id" = $1::uuid AND "followee_id" = $2::uuid AND NOT "is_friend"', data.requesterId, data.recipientId),
  'social.friendship.removed.v1': (data, tx) => unfollowBoth(tx, data.userId, data.friendId),
  // A block ends any friendship or request between the two.
  'social.user.blocked.v1': async (data, tx) => {
    await unfollowBoth(tx, data.blockerId, data.blockedId);
    await exec(tx, 'INSERT INTO "blocks" ("blocker_id", "blocked_id") VALUES ($1::uuid, $2::uuid) ON CONFLICT DO NOTHING', data.blockerId, data.blockedId);
  },
  'social.user.unblocked.v1': (data, tx) =>
    exec(tx, 'DELETE FROM "blocks" WHERE "blocker_id" = $1::uuid AND "blocked_id" = $2::uuid', data.blockerId, data.blockedId),
  'social.friend.muted.v1': (data, tx) =>
    exec(tx, 'INSERT INTO "mutes" ("user_id", "muted_id") VALUES ($1::uuid, $2::uuid) ON CONFLICT DO NOTHING', data.userId, data.friendId),
  'social.friend.unmuted.v1': (data, tx) => exec(tx, 'DELETE FROM "mutes" WHERE "user_id" = $1::uuid AND "muted_id" = $2::uuid', data.userId, data.friendId),
} satisfies ReadModelHandlers<SqlClient>;

/** The durable names of a service's audience consumers, from its prefix (one per deployment). */
export function audienceDurables(prefix: string): Record<AudiencePart, { stream: StreamName; durable: string }> {
  return { people: { stream: 'USERS', durable: `${prefix}-people` }, graph: { stream: 'SOCIAL', durable: `${prefix}-graph` } };
}

/**
 * The consumers of the read models before the audience module (one per service
 * and stream). Their durables are deleted at start: nothing reads them any more,
 * and a durable with pending events would hold every privacy change's barrier.
 */
const legacyDurables = (prefix: string): Array<{ stream: StreamName; durable: string }> => [
  { stream: 'USERS', durable: `${prefix}-users` },
  { stream: 'SOCIAL', durable: `${prefix}-social` },
];

export interface AudienceOptions<Tx extends SqlClient> {
  bus: Bus;
  /** The service's database: the inbox and the tables commit together. */
  db: TransactionalSqlClient & { $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number }): Promise<R> };
  /** Prefix of the durable names; one per deployment. */
  durable: string;
  logger: Logger;
  /** The parts this service keeps (its migrations created their tables). */
  parts: readonly AudiencePart[];
  /** The service's own columns of the people table, written in the same statement. */
  personExtras?: PersonExtras;
  /** The service's cache of the people table, written with every snapshot applied. */
  peopleCache?: PeopleCache;
  /** Older durables of this service to delete (besides `<durable>-users` and `<durable>-social`). */
  retired?: Array<{ stream: StreamName; durable: string }>;
  /**
   * After the graph's read model commits, with the events it applied: what the
   * service does once its reads see a relationship (sessions announces a
   * backfill its fan-out copied before the commit). Must not throw.
   */
  afterGraphCommit?: (events: readonly EventEnvelope[]) => void;
  /**
   * On user.deleted.v1, in the transaction, before the person's rows go:
   * what the service does with them that its erasure cannot do once they are
   * gone (sessions sweeps the person out of their followers' timelines, whose
   * list is the graph rows). Its failure rolls the event back, to be retried.
   */
  beforeForget?: (tx: Tx, userId: string) => Promise<void>;
}

/**
 * The one consumer of the audience tables: auth's user.* events into the
 * people table, social-graph's social.* events into the graph tables. A new
 * durable starts at the beginning of its stream (7 days of events), which is
 * how a service's tables were filled when the module replaced its own copies.
 */
export async function startAudience<Tx extends SqlClient>(options: AudienceOptions<Tx>): Promise<RunningConsumer[]> {
  const logger = options.logger.child({ component: 'audience' });
  for (const { stream, durable } of [...legacyDurables(options.durable), ...(options.retired ?? [])]) {
    await options.bus.jsm.consumers.delete(streamNameFor(options.bus.namespace, stream), durable).then(
      () => logger.info({ stream, durable }, 'retired read-model consumer deleted'),
      () => undefined, // not there: the usual case
    );
  }
  const durables = audienceDurables(options.durable);
  const inbox = audienceInbox<Tx>(options.db);
  const running: RunningConsumer[] = [];
  if (options.parts.includes('people')) {
    const extras = options.personExtras;
    const cache = options.peopleCache;
    // The cache first, inside the transaction: if Redis fails, the event is retried and the reset's barrier waits.
    const apply = async (data: UserSnapshot, tx: Tx) => {
      await cache?.put(personOfSnapshot(data));
      await applyPerson(tx, data, extras);
    };
    const keepsGraph = options.parts.includes('graph');
    // The account is gone: the person leaves this service's people (and graph) at once, under
    // auth's barrier, so from the moment DELETE /api/me answers nobody sees or finds them here.
    // The tombstone keeps their tokens refused and late events about them out (runOnce's guard).
    const erase = async ({ userId }: { userId: string }, tx: Tx) => {
      await options.beforeForget?.(tx, userId);
      await forgetPerson(tx, userId, { graph: keepsGraph });
      await cache?.forget(userId);
    };
    // A device signed out: the cache first as well, so the sign-out's barrier finds it refused everywhere.
    const signOut = async (data: { userId: string; deviceId: string; expiresAt: string }, tx: Tx) => {
      const revoked = { ...data, expiresAt: new Date(data.expiresAt) };
      await cache?.revokeDevice(revoked.deviceId, revoked.expiresAt);
      await revokeDevice(tx, revoked);
    };
    running.push(
      ...(await startReadModels<Tx>({
        bus: options.bus,
        durable: durables.people.durable,
        logger,
        inbox,
        streams: { USERS: { 'user.registered.v1': apply, 'user.updated.v1': apply, 'user.deleted.v1': erase, 'user.device.revoked.v1': signOut } },
        onGap: (gap) => requestUserChanges(options.bus, gap),
      })),
    );
  }
  if (options.parts.includes('graph')) {
    running.push(
      ...(await startReadModels<Tx>({
        bus: options.bus,
        durable: durables.graph.durable,
        logger,
        inbox,
        streams: { SOCIAL: graphHandlers },
        ...(options.afterGraphCommit ? { afterCommit: options.afterGraphCommit } : {}),
        // Missed graph events cannot be asked for again (a removal leaves nothing to announce): the whole graph is.
        onGap: async () => {
          await rebuildGraph<Tx>({ bus: options.bus, db: options.db, logger, tombstones: options.parts.includes('people') });
        },
      })),
    );
  }
  return running;
}

/**
 * How far before a gap's `since` auth is asked to look: the position's time is the consumer
 * database's clock and `updated_at` auth's, and a margin costs only a few more snapshots
 * (applied by version, so a resent one changes nothing).
 */
const CHANGES_MARGIN_MS = 3600_000;

/**
 * The people read model missed events (it was away longer than the streams' age): it asks
 * auth to announce again what changed since it was last caught up (user.changes.requested.v1).
 * Straight to the bus at the consumer's start, with a msg id per consumer and gap: if the
 * publish fails, the start fails and the next start, finding the same gap, asks again.
 */
async function requestUserChanges(bus: Bus, gap: ConsumerGap): Promise<void> {
  const since = new Date(gap.since.getTime() - CHANGES_MARGIN_MS).toISOString();
  await publishNow(bus, 'user.changes.requested.v1', { since, consumer: gap.durable }, `changes:${gap.durable}:${gap.from}-${gap.to}`);
}
