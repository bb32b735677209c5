import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { LiveEventName } from '@hoptrack/proto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger';

export interface LiveHubOptions {
  maxConnections: number;
  maxPerUser: number;
  heartbeatMs: number;
  registry: Registry;
  /**
   * The metrics' names: `<prefix>_streams` (open streams) and
   * `<prefix>_events_delivered_total{event}`. Dashboards, alerts and the
   * metrics test know them by the owning service's name (`messaging_live`).
   */
  metricPrefix: string;
  logger: Logger;
  /** Told of each stream opening and closing (presence: online while one is open). */
  observer?: StreamObserver;
}

export interface StreamObserver {
  opened(userId: string, streamId: string): void;
  closed(userId: string, streamId: string): void;
}

interface Stream {
  /** Unique across instances: presence counts a person's streams by it. */
  id: string;
  userId: string;
  /** The token version the stream was opened with: a password reset voids it. */
  tokenVersion: number;
  res: ServerResponse;
}

/**
 * The open server-sent-event streams of this instance, by user. Whatever
 * instance stored an event, it reaches every instance (the live feed,
 * startLiveFeed), and each writes it to the streams it holds.
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<Stream>>();
  private count = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly streamsGauge: Gauge;
  private readonly delivered: Counter<'event'>;

  constructor(private readonly options: LiveHubOptions) {
    this.streamsGauge = new Gauge({ name: `${options.metricPrefix}_streams`, help: 'Open live (SSE) streams on this instance', registers: [options.registry] });
    this.delivered = new Counter({
      name: `${options.metricPrefix}_events_delivered_total`,
      help: 'Events written to live streams, by SSE event name',
      labelNames: ['event'] as const,
      registers: [options.registry],
    });
    // One timer for all streams: a comment line keeps proxies from timing the stream out.
    this.heartbeat = setInterval(() => this.each((stream) => stream.res.write(': ping\n\n')), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get isFull(): boolean {
    return this.count >= this.options.maxConnections;
  }

  /** Takes over `res` as an event stream of `userId`; `ready` tells the client it may refetch what it missed. */
  open(userId: string, tokenVersion: number, res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    const stream: Stream = { id: randomUUID(), userId, tokenVersion, res };
    const streams = this.byUser.get(userId) ?? new Set<Stream>();
    this.byUser.set(userId, streams);
    streams.add(stream);
    this.count += 1;
    this.streamsGauge.set(this.count);
    if (streams.size > this.options.maxPerUser) {
      const oldest = streams.values().next().value;
      oldest?.res.end();
    }
    res.on('close', () => this.forget(stream));
    this.options.observer?.opened(userId, stream.id);
    // Reconnect quickly after a restart of this instance.
    res.write('retry: 2000\n\n');
    this.write(stream, 'ready', {});
  }

  /** Writes one event to every open stream of the given users. */
  deliver(userIds: string[], event: LiveEventName, data: object): void {
    for (const userId of new Set(userIds)) {
      for (const stream of this.byUser.get(userId) ?? []) this.write(stream, event, data);
    }
  }

  /**
   * Ends the streams opened with a token older than `tokenVersion` (a password
   * reset signed the user out everywhere): the reconnect is refused with 401.
   */
  revoke(userId: string, tokenVersion: number): void {
    for (const stream of [...(this.byUser.get(userId) ?? [])]) {
      if (stream.tokenVersion < tokenVersion) this.end(stream, 'token revoked');
    }
  }

  /**
   * Ends the users' streams (a block between them, a deleted account): their
   * clients reconnect and refetch, and what they may no longer see goes away
   * (or the reconnect is refused). `reason` is logged.
   */
  disconnect(userIds: string[], reason: string): void {
    for (const userId of userIds) for (const stream of [...(this.byUser.get(userId) ?? [])]) this.end(stream, reason);
  }

  /** Ends every stream (shutdown): clients reconnect to another instance. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    this.each((stream) => stream.res.end());
  }

  private end(stream: Stream, reason: string): void {
    this.options.logger.info({ userId: stream.userId, reason }, 'live stream ended by the server');
    stream.res.end();
  }

  private write(stream: Stream, event: LiveEventName, data: object): void {
    stream.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    this.delivered.inc({ event });
  }

  private each(fn: (stream: Stream) => void): void {
    for (const streams of this.byUser.values()) for (const stream of [...streams]) fn(stream);
  }

  private forget(stream: Stream): void {
    const streams = this.byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) this.byUser.delete(stream.userId);
    this.count -= 1;
    this.streamsGauge.set(this.count);
    this.options.observer?.closed(stream.userId, stream.id);
    this.options.logger.debug({ userId: stream.userId }, 'live stream closed');
  }
}
