import { streamNameFor, type EventType, type StreamName } from '@hoptrack/proto';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Bus } from './connection';

/** What the relay and the consumers count; present once the process registered them (`instrumentBus`). */
export interface BusMetrics {
  published: Counter<'type'>;
  consumed: Counter<'consumer' | 'type' | 'outcome'>;
  handlerDuration: Histogram<'consumer' | 'type'>;
  /** Events a consumer's stream deleted before it read them (bus/positions.ts): at most this many were for it. */
  missed: Counter<'consumer'>;
}

/**
 * How a delivered event ended: applied, skipped as already applied, no handler,
 * failed (redelivered later), parked (failed on its last allowed delivery, or
 * unreadable: stored in the dead-letter stream, the stream moves on).
 */
export type ConsumeOutcome = 'ok' | 'duplicate' | 'ignored' | 'failed' | 'parked';

/**
 * Registers the bus metrics of a process on its registry: events published
 * (by the outbox relay) and consumed per type and outcome, handler latency,
 * and, read from JetStream at scrape time, each durable consumer's lag
 * (pending), in-flight (ack pending) and redelivered counts.
 */
export function instrumentBus(bus: Bus, registry: Registry): void {
  const consumerGauge = (name: string, help: string, pick: (info: { num_pending: number; num_ack_pending: number; num_redelivered: number }) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['stream', 'consumer'] as const,
      registers: [registry],
      async collect() {
        for (const { stream, durable } of bus.consumers) {
          // A consumer deleted under us (tests, an operator) must not break the scrape.
          const info = await bus.jsm.consumers.info(streamNameFor(bus.namespace, stream), durable).catch(() => null);
          if (info) this.set({ stream, consumer: durable }, pick(info));
        }
      },
    });
  consumerGauge('bus_consumer_pending_events', 'Events in the stream the consumer has not received yet (its lag)', (i) => i.num_pending);
  consumerGauge('bus_consumer_ack_pending_events', 'Events delivered to the consumer and not yet acknowledged', (i) => i.num_ack_pending);
  consumerGauge('bus_consumer_redelivered_events', 'Events currently redelivered to the consumer at least once', (i) => i.num_redelivered);
  const streamGauge = (name: string, help: string, pick: (state: { messages: number; bytes: number; consumer_count: number }) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['stream'] as const,
      registers: [registry],
      async collect() {
        for (const stream of bus.streams) {
          const info = await bus.jsm.streams.info(streamNameFor(bus.namespace, stream)).catch(() => null);
          if (info) this.set({ stream }, pick(info.state));
        }
      },
    });
  streamGauge('bus_stream_messages', 'Events the JetStream stream holds (kept for a week)', (s) => s.messages);
  streamGauge('bus_stream_bytes', 'Bytes the JetStream stream holds', (s) => s.bytes);
  streamGauge('bus_stream_consumers', 'Consumers of the JetStream stream, every process counted', (s) => s.consumer_count);
  bus.metrics = {
    published: new Counter({ name: 'bus_events_published_total', help: 'Events published by the outbox relay', labelNames: ['type'] as const, registers: [registry] }),
    consumed: new Counter({
      name: 'bus_events_consumed_total',
      help: 'Events delivered to a durable consumer, by outcome',
      labelNames: ['consumer', 'type', 'outcome'] as const,
      registers: [registry],
    }),
    handlerDuration: new Histogram({
      name: 'bus_event_handler_duration_seconds',
      help: 'Time to apply one event (inbox and handler)',
      labelNames: ['consumer', 'type'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    }),
    missed: new Counter({
      name: 'bus_consumer_missed_events_total',
      help: "Events deleted past the stream's age before the consumer read them, found at its start (an upper bound: some may not have been for it)",
      labelNames: ['consumer'] as const,
      registers: [registry],
    }),
  };
}

/** A durable consumer the lag gauges report on. */
export interface WatchedConsumer {
  stream: StreamName;
  durable: string;
  /** The event types it has handlers for: what the process's contract in proto must declare. */
  types: readonly EventType[];
}
