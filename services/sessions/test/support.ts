import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { streamNameFor, type EventData, type EventType, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, createTokenService, DEV_SIGNING_KEY, personById } from '@hoptrack/runtime';
import { eventually, publishEvent, readEvents, startService, testDatabaseUrl, testNamespace, testUserSnapshot, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startLocalS3, type LocalS3 } from '@hoptrack/testing/s3';
import type { SessionsApp } from '../src/app';
import type { SessionsConfig } from '../src/config';
import { openConnections, type SessionsConnections } from '../src/connections';
import { sessionsService } from '../src/service';
import { startFanout, type RunningFanout } from '../src/workers/fanout/fanout-worker';

export const databaseUrl = testDatabaseUrl('sessions');

export interface FormFields {
  [name: string]: string | undefined;
}
export interface Photo {
  data: Buffer;
  filename?: string;
  contentType?: string;
}

export interface Client {
  id: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: object): Promise<LightMyRequestResponse>;
  delete(url: string, body?: object): Promise<LightMyRequestResponse>;
  patch(url: string, body?: object): Promise<LightMyRequestResponse>;
  /** POST or PUT a multipart session form, as the browser sends it. */
  form(method: 'POST' | 'PUT', url: string, fields: FormFields, photo?: Photo | Photo[]): Promise<LightMyRequestResponse>;
}

export interface TestSessions extends SessionsApp, SessionsConnections {
  config: SessionsConfig;
  env: Record<string, string>;
  fanout: RunningFanout;
  media: RunningProcess;
  s3: LocalS3;
  /** A user the read model knows (public unless said otherwise), with a client. */
  user(options?: { private?: boolean; displayName?: string }): Promise<Client>;
  as(userId: string): Promise<Client>;
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<void>;
  befriend(a: Client, b: Client): Promise<void>;
  /** Waits until published events are applied: outbox relayed, read models caught up, fan-out queue idle. */
  settle(): Promise<void>;
  /** Logs a session through the API and waits for its fan-out. */
  logSession(author: Client, fields?: FormFields, photo?: Photo | Photo[]): Promise<{ id: string }>;
  sessionEvents(): Promise<Array<{ type: string; data: unknown }>>;
  /**
   * The SQL statements `run` sent to Postgres, less the outbox relay's and the
   * consumers' inbox statements that go on in the background.
   */
  statementsOf(run: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

/** A multipart body, built by hand as a browser would send it; several photos are several `sessionPhoto` parts, in order. */
export function multipartBody(fields: FormFields, photo?: Photo | Photo[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hoptrack${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const one of photo === undefined ? [] : Array.isArray(photo) ? photo : [photo]) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="sessionPhoto"; filename="${one.filename ?? 'photo.jpg'}"\r\nContent-Type: ${one.contentType ?? 'image/jpeg'}\r\n\r\n`,
      ),
      one.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function snapshot(id: string, options: { private?: boolean; displayName?: string; updatedAt?: Date } = {}): UserSnapshot {
  const { private: isProfilePrivate, ...rest } = options;
  return testUserSnapshot(id, { ...rest, ...(isProfilePrivate !== undefined ? { isProfilePrivate } : {}) });
}

/** The definition's consumers a test may ask for by name. */
export type SessionsConsumer = keyof NonNullable<typeof sessionsService.consumers>;

/**
 * The sessions service from its definition (the one production runs)
 * in-process against real Postgres, Redis and NATS, with the consumers named
 * (the audience's and the cards' by default); the fan-out worker's machinery
 * in-process too (startFanout: the pieces its definition runs, on the API's
 * connections); and the real media service as a separate process (with a
 * local S3 server) for session photos.
 */
export async function startTestSessions(overrides: Record<string, string> = {}, options: { consumers?: readonly SessionsConsumer[] } = {}): Promise<TestSessions> {
  const s3 = await startLocalS3({ port: await freePort(), directory: await mkdtemp(path.join(tmpdir(), 'sessions-test-')) });
  const namespace = testNamespace('sessions');
  const common = {
    NODE_ENV: 'test',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_NAMESPACE: namespace,
  };
  const media = await startProcess({
    name: 'media',
    entry: 'services/media/src/server.ts',
    port: await freePort(),
    env: { ...common, LOG_LEVEL: 'warn', DATABASE_URL: testDatabaseUrl('sessions_media'), S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'sessions-test', READ_MODEL_CONSUMER: `media-${namespace}` },
  });
  // Also what a test hands to the fan-out worker process it starts (worker-crash).
  const env = {
    ...common,
    DATABASE_URL: databaseUrl,
    MEDIA_INTERNAL_URL: media.url,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    CARDS_CONSUMER: `cards-${namespace}`,
    FANOUT_CONSUMER: `fanout-${namespace}`,
    FANOUT_BATCH: '3',
    // A dead fan-out consumer's event comes back after 2 s, not production's 30 (worker-crash.test.ts kills one).
    FANOUT_ACK_WAIT_MS: '2000',
    FANOUT_STALLED_INTERVAL_MS: '1000',
    FANOUT_LOCK_MS: '2000',
    ...overrides,
  };
  let captured: string[] | null = null;
  const sessions = await startService(sessionsService, {
    env,
    consumers: options.consumers ?? ['audience', 'cards'],
    // The definition's connections, with the statement hook statementsOf reads, and the namespace's Redis keys wiped as they close.
    async connect({ config, logger }) {
      const connections = await openConnections(config, logger, 'sessions-test', (sql) => captured?.push(sql));
      return {
        ...connections,
        async close() {
          await connections.redis.del(...(await connections.redis.keys(`${namespace}:*`)), 'unused-key');
          await connections.close();
        },
      };
    },
    async prepare() {
      await truncate(databaseUrl, ['reactions', 'comments', 'likes', 'beer_sessions', 'users', 'follows', 'blocks', 'mutes', 'outbox', 'processed_events']);
    },
  });
  const { config, connections, parts: built } = sessions;
  // Started after the service's own consumers: it reads what the fan-out process's contract declares, not the API's.
  const fanout = await startFanout({ config, connections, logger: sessions.logger });
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h'  });

  const as = async (id: string): Promise<Client> => {
    const authorization = `Bearer ${await tokens.sign({ userId: id, tokenVersion: 0 })}`;
    const json = (method: 'POST' | 'DELETE' | 'PATCH') => (url: string, body?: object) =>
      built.app.inject({ method, url, headers: { authorization }, ...(body ? { payload: body } : {}) });
    return {
      id,
      get: (url) => built.app.inject({ method: 'GET', url, headers: { authorization } }),
      post: json('POST'),
      delete: json('DELETE'),
      patch: json('PATCH'),
      form: (method, url, fields, photo) => {
        const body = multipartBody(fields, photo);
        return built.app.inject({ method, url, headers: { authorization, ...body.headers }, payload: body.payload });
      },
    };
  };

  const streamsDrained = async () => {
    for (const [stream, durables] of [
      ['USERS', [audienceDurables(config.READ_MODEL_CONSUMER).people.durable]],
      ['SOCIAL', [audienceDurables(config.READ_MODEL_CONSUMER).graph.durable, `${config.FANOUT_CONSUMER}-social`]],
      ['SESSIONS', [`${config.FANOUT_CONSUMER}-sessions`, config.CARDS_CONSUMER]],
    ] as const) {
      for (const durable of durables) {
        const info = await connections.bus.jsm.consumers.info(streamNameFor(namespace, stream), durable);
        if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
      }
    }
    return true;
  };
  const settle = async () => {
    await built.relay.drain();
    await eventually(async () => (await streamsDrained()) && (await fanout.idle()) && (await streamsDrained()), 'events applied');
  };

  const api: TestSessions = {
    ...built,
    ...connections,
    config,
    env,
    fanout,
    media,
    s3,
    as,
    async user(options = {}) {
      const id = randomUUID();
      await publishEvent(connections.bus, 'user.registered.v1', snapshot(id, options));
      await eventually(async () => (await personById(connections.prisma, id)) !== null, 'user in the read model');
      return as(id);
    },
    async publish(type, data) {
      await publishEvent(connections.bus, type, data);
    },
    async befriend(a, b) {
      await publishEvent(connections.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: a.id, recipientId: b.id });
      await settle();
    },
    settle,
    async logSession(author, fields = {}, photo) {
      const res = await author.form('POST', '/api/sessions', { title: 'Friday pints', ...fields }, photo);
      if (res.statusCode !== 201) throw new Error(`log session failed: ${res.statusCode} ${res.body}`);
      await settle();
      return { id: res.json().id };
    },
    async statementsOf(run) {
      const statements: string[] = [];
      captured = statements;
      try {
        await run();
      } finally {
        captured = null;
      }
      return statements.filter((sql) => !/"?outbox"?|"?processed_events"?/.test(sql));
    },
    async sessionEvents() {
      await built.relay.drain();
      return readEvents(connections.bus, 'SESSIONS');
    },
    async close() {
      await fanout.stop();
      // Before the streams go: media's consumers read them too.
      await media.stop();
      await sessions.close();
      await s3.close();
    },
  };
  return api;
}
