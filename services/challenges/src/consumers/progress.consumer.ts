import type { EventEnvelope, StreamName } from '@hoptrack/proto';
import { audienceInbox, startEffectConsumers, type Bus, type Effects as EffectsOf, type Logger, type RunningConsumer, type SqlClient, type TransactionalSqlClient } from '@hoptrack/runtime';
import type { Clock } from '../domain/clock';
import type { Progress, Touched } from '../domain/progress';

/** What an event does to the facts: whose challenges to recompute, and for which moment. */
type Effects = EffectsOf<SqlClient, Touched>;

const at = (event: EventEnvelope) => new Date(event.occurredAt);

function effects(progress: Progress): Record<'SESSIONS' | 'MEDIA' | 'PLACES', Effects> {
  return {
    SESSIONS: {
      'session.created.v1': (tx, e) => progress.session(tx, e.data),
      'session.updated.v1': (tx, e) => progress.session(tx, e.data),
      'session.deleted.v1': (tx, e) => progress.forget(tx, 'session_facts', e.data.sessionId, e.data.userId, at(e)),
    },
    MEDIA: {
      'media.photo.stored.v1': (tx, e) => progress.record(tx, 'photo_facts', e.data.photoId, e.data.userId, at(e)),
      'media.photo.deleted.v1': (tx, e) => progress.forget(tx, 'photo_facts', e.data.photoId, e.data.userId, at(e)),
    },
    PLACES: {
      'place.review.created.v1': (tx, e) => progress.record(tx, 'review_facts', e.data.reviewId, e.data.userId, new Date(e.data.createdAt)),
      'place.review.deleted.v1': (tx, e) => progress.forget(tx, 'review_facts', e.data.reviewId, e.data.userId, at(e)),
    },
  };
}

export interface ProgressConsumersOptions {
  bus: Bus;
  /** Plain SQL over the pool Prisma shares: the inbox transaction of every event (withPooledBus). */
  sql: TransactionalSqlClient;
  progress: Progress;
  /** Durable-name prefix: `<prefix>-sessions`, `-media`, `-places`. */
  durable: string;
  logger: Logger;
  clock?: Clock;
  onEventsCommitted: () => void;
}

export const PROGRESS_STREAMS = ['SESSIONS', 'MEDIA', 'PLACES'] as const satisfies readonly StreamName[];

/**
 * One durable consumer per stream progress listens to. Each event runs in the
 * inbox transaction (a redelivered or replayed envelope is skipped whole):
 * the fact changes, the person's challenges are recomputed, and a completion's
 * event (or a withdrawn completion's) is written to the outbox, all or nothing.
 */
export function startProgressConsumers(options: ProgressConsumersOptions): Promise<RunningConsumer[]> {
  const clock = options.clock ?? (() => new Date());
  return startEffectConsumers<SqlClient, Touched>({
    bus: options.bus,
    durable: options.durable,
    logger: options.logger.child({ component: 'challenges-progress' }),
    inbox: audienceInbox<SqlClient>(options.sql),
    streams: effects(options.progress),
    then: (tx, touched, event) => options.progress.recompute(tx, touched, clock(), event.requestId),
    afterCommit: options.onEventsCommitted,
  });
}
