import { parseEvent, streamNameFor, type LiveMessageEvent, type LiveReadEvent } from '@hoptrack/proto';
import type { Bus, Logger } from '@hoptrack/runtime';
import { DeliverPolicy, type ConsumerMessages } from 'nats';
import type { LiveHub } from './hub';

export interface RunningLiveFeed {
  stop(): Promise<void>;
}

/**
 * Feeds this instance's live streams from the MESSAGES stream. Each instance
 * reads every event with its own ephemeral ordered consumer (no durable, no
 * acks: a live push missed while an instance was down is made good by the
 * client's refetch on reconnect), starting from now. The ordered consumer
 * resumes at its last sequence after a NATS reconnect, so nothing published
 * meanwhile is skipped.
 */
export async function startLiveFeed(options: { bus: Bus; hub: LiveHub; logger: Logger }): Promise<RunningLiveFeed> {
  const { bus, hub } = options;
  const logger = options.logger.child({ component: 'live-feed' });
  const consumer = await bus.js.consumers.get(streamNameFor(bus.namespace, 'MESSAGES'), { deliver_policy: DeliverPolicy.New });
  const messages: ConsumerMessages = await consumer.consume();
  const loop = (async () => {
    for await (const msg of messages) {
      try {
        const event = parseEvent(msg.json());
        if (event.type === 'message.sent.v1') {
          const data = event.data as LiveMessageEvent;
          hub.deliver([data.senderId, data.recipientId], 'message', data);
        } else if (event.type === 'message.read.v1') {
          const data = event.data as LiveReadEvent;
          hub.deliver([data.readerId, data.senderId], 'read', data);
        }
      } catch (err) {
        logger.error({ err, subject: msg.subject, seq: msg.seq }, 'unreadable live event skipped');
      }
    }
  })();
  return {
    async stop() {
      await messages.close();
      await loop;
    },
  };
}
