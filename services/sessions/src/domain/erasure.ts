import type { EventEnvelope } from '@hoptrack/proto';
import type { EventHandlers, HandlerContext, Logger, PeopleCache, SqlClient } from '@hoptrack/runtime';
import { anyErased, forgetPerson, idsMentioned } from '@hoptrack/runtime';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CardRenderer } from '../cards/renderer';
import type { Prisma, PrismaClient } from '../db';
import type { FanoutJob } from '../feed/fanout';
import type { Timelines } from '../feed/timelines';
import { erasureRepository } from '../repositories/erasure.repository';

/**
 * The audience consumer's `beforeForget`: it deletes the graph rows on
 * user.deleted.v1 in whatever order it and the erasure run, so it takes the
 * person's entries out of their followers' timelines first, in its
 * transaction, while the rows still list them.
 */
export function sweepFollowersBeforeForget(timelines: Pick<Timelines, 'removeAuthorFrom'>): (tx: SqlClient, userId: string) => Promise<void> {
  return async (tx, userId) => {
    const id = userId.toLowerCase();
    await timelines.removeAuthorFrom(await erasureRepository.followersOf(tx, id), id);
  };
}

/** The fan-out queue's job states a job can sit in (active ones are locked by a worker: waited for). */
const SETTLED_STATES = ['completed', 'failed', 'wait', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SessionsErasureDeps {
  prisma: PrismaClient;
  /** The fan-out queue's Redis (its event log is read here). */
  redis: Redis;
  /** On the timelines' own Redis when they have one (TIMELINE_REDIS_URL). */
  timelines: Pick<Timelines, 'drop' | 'removeAuthorFrom'>;
  cards: Pick<CardRenderer, 'invalidate'>;
  people: Pick<PeopleCache, 'forget'>;
  /** The fan-out worker's queue (its jobs' data and ids can name the person). */
  fanoutQueue: Queue<FanoutJob>;
  /** How long to wait for fan-out jobs running when the erasure commits (they may have read the person before). */
  activeWaitMs: number;
  logger: Logger;
}

/** What one erasure found before deleting: the sessions whose cards change, and the timelines that hold the person's entries. */
interface Pending {
  userId: string;
  sessionIds: Set<string>;
  followers: Set<string>;
}

/**
 * The sessions service's part of an account deletion (issue 24), for
 * startErasure. Rows: the person's sessions with everything others left on
 * them, and the likes, comments and reactions they left on others'; their
 * people and graph rows too (the audience consumer removes them as well, in
 * whatever order the two run). Outside: their timeline, their entries in
 * their followers' timelines, the cards of the sessions they wrote or acted
 * on, their people-cache entry, and the fan-out jobs that name them.
 *
 * What is swept is read from the person's rows, so an erasure costs in
 * proportion to the person (their followers, the sessions they touched), not
 * to how many timelines and cards Redis holds (issue 41; until then every key
 * of the namespace was scanned: Redis 2.3 and sessions 1.0 of the 4.6 CPU-s a
 * person cost with 5,000 timelines). Only
 * followers' timelines hold the person's entries: fan-out and back-fill write
 * to followers only, and an unfollow, block or mute takes the entries out
 * (unlink), which runs even for an erased person (REMOVAL_EVENTS), so an
 * unfollow the graph has applied but the fan-out has not still cleans up.
 * The audience consumer deletes the graph rows too, and may run first: it
 * sweeps the followers' timelines before (sweepFollowersBeforeForget).
 *
 * Redis is swept twice: before the rows go (startErasure's `outside`, so a
 * crash leaves nothing pointing nowhere), and again once the transaction has
 * committed (`db` wraps startErasure's transaction), because until then a
 * card filled or a fan-out job run from the old rows can put the person back.
 * Jobs that were running at the commit are waited for first; from the commit
 * on, the fan-out finds neither their sessions nor their follows, and skips
 * events and back-fills that name them (skipErased, the tombstone).
 */
export class SessionsErasure {
  private readonly pending = new WeakMap<object, Pending>();

  constructor(private readonly deps: SessionsErasureDeps) {}

  /** startErasure's database: the service's, with the second sweep once a transaction that erased someone committed. */
  readonly db = {
    $transaction: async <R>(fn: (tx: Prisma.TransactionClient) => Promise<R>, options?: { timeout?: number }): Promise<R> => {
      let used: object | undefined;
      const result = await this.deps.prisma.$transaction((tx) => {
        used = tx;
        return fn(tx);
      }, options);
      const done = used ? this.pending.get(used) : undefined;
      if (done) await this.afterCommit(done);
      return result;
    },
  };

  /** startErasure's `outside`: notes the sessions whose cards change, then sweeps Redis. */
  readonly outside = async (userId: string, tx: SqlClient): Promise<void> => {
    const id = userId.toLowerCase();
    const found: Pending = {
      userId: id,
      sessionIds: new Set(await erasureRepository.sessionIdsTouchedBy(tx, id)),
      followers: new Set(await erasureRepository.followersOf(tx, id)),
    };
    this.pending.set(tx, found);
    await this.sweep(found, { waitForActiveJobs: false });
  };

  /** startErasure's `rows`. Others' sessions lose the person's likes, comments and reactions; their counts are counted from the rows. */
  readonly rows = async (tx: Prisma.TransactionClient, userId: string): Promise<void> => {
    // What the rows say now, not only what `outside` read: a like or a follow committed in between is swept after the commit too.
    const found = this.pending.get(tx);
    const touched = await erasureRepository.deleteAllOf(tx, userId);
    const followers = await erasureRepository.followersOf(tx, userId);
    // The audience's rows of them (its consumer deletes them too): gone with this commit, whichever runs first.
    await forgetPerson(tx, userId, { graph: true });
    if (found) {
      for (const id of touched) found.sessionIds.add(id);
      for (const id of followers) found.followers.add(id);
    }
  };

  private async afterCommit(done: Pending): Promise<void> {
    await this.waitForRunningJobs();
    await this.sweep(done, { waitForActiveJobs: true });
  }

  private async sweep(done: Pending, options: { waitForActiveJobs: boolean }): Promise<void> {
    const { userId, sessionIds, followers } = done;
    await this.deps.timelines.drop(userId);
    const removed = await this.deps.timelines.removeAuthorFrom([...followers], userId);
    // Their cards go, and others' sessions the person acted on count differently now.
    await this.deps.cards.invalidate([...sessionIds]);
    await this.deps.people.forget(userId);
    const jobs = await this.sweepQueue(userId, options.waitForActiveJobs);
    this.deps.logger.debug({ removed, sessions: sessionIds.size, followers: followers.size, jobs }, 'erasure swept Redis');
  }

  /**
   * Removes the fan-out jobs whose id or data names the person (waiting,
   * failed ones kept for operators, and completed ones an earlier release
   * kept), and the queue's event-log entries naming them (about 100 kept). A job a worker holds cannot be removed:
   * after the commit it is waited for, then removed.
   */
  private async sweepQueue(userId: string, waitForActiveJobs: boolean): Promise<number> {
    const queue = this.deps.fanoutQueue;
    const names = (job: { id?: string; data: unknown }) => `${job.id ?? ''} ${JSON.stringify(job.data)}`.toLowerCase().includes(userId);
    const deadline = Date.now() + this.deps.activeWaitMs;
    let removed = 0;
    for (;;) {
      let held = 0;
      for (const state of [...SETTLED_STATES, 'active'] as const) {
        for (const job of await queue.getJobs([state], 0, -1)) {
          if (!job?.id || !names(job)) continue;
          if ((await queue.remove(job.id)) === 1) removed++;
          else held++;
        }
      }
      if (held === 0 || !waitForActiveJobs || Date.now() > deadline) break;
      await sleep(50);
    }
    const events = queue.keys.events;
    if (events) {
      const entries = await this.deps.redis.xrange(events, '-', '+');
      const naming = entries.filter(([, fields]) => fields.join(' ').toLowerCase().includes(userId)).map(([entryId]) => entryId);
      if (naming.length > 0) await this.deps.redis.xdel(events, ...naming);
    }
    return removed;
  }

  /** Waits (bounded) until the fan-out jobs running now have finished: they may have read the rows before the commit. */
  private async waitForRunningJobs(): Promise<void> {
    const queue = this.deps.fanoutQueue;
    const running = new Set((await queue.getActive(0, -1)).flatMap((job) => (job?.id ? [job.id] : [])));
    const deadline = Date.now() + this.deps.activeWaitMs;
    while (running.size > 0 && Date.now() < deadline) {
      await sleep(50);
      const still = new Set((await queue.getActive(0, -1)).flatMap((job) => (job?.id ? [job.id] : [])));
      for (const id of running) if (!still.has(id)) running.delete(id);
    }
    if (running.size > 0) this.deps.logger.warn({ jobs: [...running] }, 'erasure went on while fan-out jobs still ran');
  }
}

/**
 * Handlers that leave alone any event naming an erased person (for the
 * consumers without an inbox, whose guard is the inbox's): published before
 * the deletion, delivered after, it must not queue work that names them.
 * `letThrough` names the event types run unguarded (UNGUARDED_EVENTS).
 */
export function skipErased(db: SqlClient, handlers: EventHandlers, logger: Logger, options: { letThrough?: ReadonlySet<string> } = {}): EventHandlers {
  const guarded: Record<string, (event: EventEnvelope, context: HandlerContext) => Promise<void>> = {};
  for (const [type, handler] of Object.entries(handlers) as Array<[string, (event: EventEnvelope, context: HandlerContext) => Promise<void>]>) {
    // Work that only takes entries out, or that reads what an erasure deletes before it writes, runs whoever it names.
    if (options.letThrough?.has(type)) {
      guarded[type] = handler;
      continue;
    }
    guarded[type] = async (event, context) => {
      if (await anyErased(db, idsMentioned(event.type, event.data))) {
        logger.debug({ eventId: event.id, type: event.type }, 'event about an erased person skipped');
        return;
      }
      await handler(event, context);
    };
  }
  return guarded as EventHandlers;
}
