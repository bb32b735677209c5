import { randomUUID } from 'node:crypto';
import { streamNameFor, subjectFor, type EventEnvelope, type EventType, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, createTokenService, DEV_SIGNING_KEY, type RunningConsumer } from '@hoptrack/runtime';
import { publishEvent, readEvents, startService, testClock, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import type { SocialApp } from '../src/app';
import type { SocialConfig } from '../src/config';
import type { SocialConnections } from '../src/connections';
import { socialGraphService } from '../src/service';

export const databaseUrl = testDatabaseUrl('social_graph');

export interface TestUser {
  id: string;
  username: string;
  displayName: string;
  email: string;
  token: string;
  snapshot: UserSnapshot;
}

export interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: object): Promise<LightMyRequestResponse>;
  patch(url: string, body?: object): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export interface TestSocial extends SocialApp, SocialConnections {
  config: SocialConfig;
  /** The definition's consumers this test runs (by name, see startTestSocial). */
  consumers: RunningConsumer[];
  logs: Array<Record<string, unknown>>;
  /** A user as auth would announce it (user.registered.v1 on the bus), once the read model has it. */
  user(options?: { private?: boolean; username?: string; displayName?: string }): Promise<TestUser>;
  /** Publishes user.updated.v1 with the changes and waits until the read model shows them. */
  updateUser(user: TestUser, changes: Partial<UserSnapshot>): Promise<void>;
  as(user: TestUser): Client;
  /** A sends, B accepts: friends. */
  befriend(a: TestUser, b: TestUser): Promise<void>;
  /** Publishes what is pending, then every SOCIAL event so far (of the given types, or all). */
  events<T extends EventType>(...types: T[]): Promise<Array<EventEnvelope<T>>>;
  /** A token signed with the development key (the service's default JWKS in tests), for any user id and token version. */
  signToken(userId: string, tokenVersion: number): Promise<string>;
  /** Publishes an envelope as auth would (raw; no waiting): `msgId` defaults to the envelope id, as the outbox relay does. */
  publishRaw(envelope: EventEnvelope<'user.registered.v1' | 'user.updated.v1'>, msgId?: string): Promise<void>;
  /** Waits until the USERS consumer `durable` has acknowledged everything on the stream. */
  settle(durable?: string): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

/** The definition's consumers, by name: users (the people table), sessions (the stat tiles' facts), erasure, export. */
export type SocialConsumer = keyof NonNullable<typeof socialGraphService.consumers>;

/**
 * The social graph from its definition (the one production runs) on its test
 * database and a private bus namespace, at a test clock, with the outbox relay
 * and the consumers named running (the people table's by default). Every
 * table starts empty; the durables are the namespace's own, so the inbox
 * rows of one file never answer for another's.
 */
export async function startTestSocial(options: { consumers?: readonly SocialConsumer[] } = {}): Promise<TestSocial> {
  const namespace = testNamespace('social');
  const social = await startService(socialGraphService, {
    env: { DATABASE_URL: databaseUrl, BUS_NAMESPACE: namespace, READ_MODEL_CONSUMER: `rm-${namespace}`, SESSIONS_CONSUMER: `sessions-${namespace}` },
    clock: testClock().now,
    consumers: options.consumers ?? ['users'],
    async prepare() {
      await truncate(databaseUrl, ['users', 'friendships', 'blocked_users', 'session_facts', 'outbox', 'processed_events']);
    },
  });
  const { config, connections, parts: built, logs: lines } = social;
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });

  const publishUser = async (type: 'user.registered.v1' | 'user.updated.v1', snapshot: UserSnapshot) => {
    await publishEvent(connections.bus, type, snapshot);
    for (let i = 0; i < 200; i++) {
      const stored = await connections.prisma.user.findUnique({ where: { id: snapshot.id } });
      if (stored && stored.updatedAt.getTime() >= new Date(snapshot.updatedAt).getTime()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    const errors = lines.filter((l) => Number(l.level) >= 50).slice(-3).map((l) => JSON.stringify(l));
    throw new Error(`read model never received ${type} for ${snapshot.username}${errors.length ? `; last errors: ${errors.join(' | ')}` : ''}`);
  };

  const client = (user: TestUser): Client => {
    const headers = { authorization: `Bearer ${user.token}` };
    return {
      get: (url) => built.app.inject({ method: 'GET', url, headers }),
      post: (url, body) => built.app.inject({ method: 'POST', url, headers, ...(body ? { payload: body } : {}) }),
      patch: (url, body) => built.app.inject({ method: 'PATCH', url, headers, ...(body ? { payload: body } : {}) }),
      delete: (url) => built.app.inject({ method: 'DELETE', url, headers }),
    };
  };

  return {
    ...built,
    ...connections,
    config,
    consumers: social.consumers,
    logs: lines,
    async user(options = {}) {
      counter += 1;
      const tag = `${Date.now().toString(36)}${counter}`;
      const now = new Date().toISOString();
      const snapshot: UserSnapshot = {
        id: randomUUID(),
        email: `u${tag}@example.com`,
        username: options.username ?? `user_${tag}`,
        displayName: options.displayName ?? `User ${tag}`,
        bio: `Bio of ${tag}`,
        avatar: null,
        profilePicture: null,
        isProfilePrivate: options.private ?? false,
        allowDirectMessages: true,
        showOnlineStatus: true,
        tokenVersion: 0,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      await publishUser('user.registered.v1', snapshot);
      const token = await tokens.sign({ userId: snapshot.id, tokenVersion: 0 });
      return { id: snapshot.id, username: snapshot.username, displayName: snapshot.displayName, email: snapshot.email, token, snapshot };
    },
    async updateUser(user, changes) {
      // As auth does: the version moves with each change (the clock stamp too, for information).
      user.snapshot = { ...user.snapshot, ...changes, version: (user.snapshot.version ?? 0) + 1, updatedAt: new Date(Date.now() + 1).toISOString() };
      await publishUser('user.updated.v1', user.snapshot);
    },
    as: client,
    async befriend(a, b) {
      const sent = await client(a).post('/api/friendships', { friendId: b.id });
      if (sent.statusCode !== 201) throw new Error(`request failed: ${sent.statusCode} ${sent.body}`);
      const accepted = await client(b).patch(`/api/friendships/${sent.json().id}`, { action: 'accept' });
      if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`);
    },
    async events(...types) {
      await built.relay.drain();
      return readEvents(connections.bus, 'SOCIAL', ...types);
    },
    signToken: (userId, tokenVersion) => tokens.sign({ userId, tokenVersion }),
    async publishRaw(envelope, msgId = envelope.id) {
      await connections.bus.publish(subjectFor(namespace, envelope.type), JSON.stringify(envelope), msgId);
    },
    async settle(durable = audienceDurables(config.READ_MODEL_CONSUMER).people.durable) {
      const stream = streamNameFor(namespace, 'USERS');
      for (let i = 0; i < 400; i++) {
        const [info, state] = await Promise.all([connections.bus.jsm.consumers.info(stream, durable), connections.bus.jsm.streams.info(stream)]);
        if (info.ack_floor.stream_seq >= state.state.last_seq && info.num_ack_pending === 0 && info.num_pending === 0) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`consumer ${durable} never caught up with the USERS stream`);
    },
    close: () => social.close(),
  };
}
