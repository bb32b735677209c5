import type { EventEnvelope, EventType } from '@hoptrack/proto';
import { startConsumer, type Bus, type EventHandlers, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { CardRenderer } from '../cards/renderer';

/** The session events that change a card (a new session has no card to drop yet). */
const CARD_CHANGES = [
  'session.updated.v1',
  'session.deleted.v1',
  'session.liked.v1',
  'session.unliked.v1',
  'session.commented.v1',
  'session.comment.edited.v1',
  'session.comment.deleted.v1',
  'session.reacted.v1',
  'session.unreacted.v1',
] as const satisfies readonly EventType[];

/**
 * The card read model's safety net: the write that changes a card drops it
 * right after its commit, but that call can fail (Redis away for a moment)
 * after the change is committed. Its event cannot be lost (outbox), so the
 * card is dropped again here. Dropping is idempotent, so no inbox is needed:
 * a redelivery costs one more rebuild at most.
 */
export function startCardsConsumer(options: { bus: Bus; cards: Pick<CardRenderer, 'invalidate'>; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const drop = async (event: EventEnvelope<(typeof CARD_CHANGES)[number]>) => options.cards.invalidate([event.data.sessionId]);
  const handlers: EventHandlers = Object.fromEntries(CARD_CHANGES.map((type) => [type, drop]));
  return startConsumer({ bus: options.bus, logger: options.logger.child({ component: 'cards' }), stream: 'SESSIONS', durable: options.durable, handlers });
}
