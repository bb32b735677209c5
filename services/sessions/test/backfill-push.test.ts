import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_EVENTS_PATH, LIVE_PUSHES, type LiveFeedEvent } from '@hoptrack/proto';
import { ensureStreams, LiveHub, startLiveFeed, type RunningLiveFeed } from '@hoptrack/runtime';
import { CONDITION_BOUND_MS, eventually, memoryLogger, readEvents } from '@hoptrack/testing';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf } from '../src/feed/timelines';
import { feedIds, readFeeds } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

/**
 * The backfill's live push (issue 40, item 8, without the web's 2-second
 * guess): once the fan-out has copied an author's earlier sessions onto a
 * person's timeline and the graph's read model has committed the same event
 * (the feed re-checks against it), whichever comes second announces it
 * (session.timeline.backfilled.v1, issue 41 item 4), and the
 * declared `feed` push takes it to that person's open streams only. The
 * fan-out runs in-process beside the API (startTestSessions); the streams are
 * the platform's own hub and feed with every declared push, as messaging
 * runs them, on this test's bus. Its server takes `Bearer <userId>`.
 */

const { logger } = memoryLogger('sessions-live-test', 'warn');
let t: TestSessions;
let hub: LiveHub;
let feed: RunningLiveFeed;
let server: Server;
let url: string;
const opened: LiveClient[] = [];

beforeAll(async () => {
  t = await startTestSessions();
  hub = new LiveHub({ maxConnections: 100, maxPerUser: 5, heartbeatMs: 60_000, registry: new Registry(), metricPrefix: 'sessions_test_live', logger });
  server = createServer((req, res) => {
    const userId = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (req.url === LIVE_EVENTS_PATH && userId) hub.open(userId, 0, res, {});
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The streams of every declared push (messages, notifications, challenges too), as messaging ensures them; they go with the service's.
  await ensureStreams(t.bus);
  feed = await startLiveFeed({ bus: t.bus, hub, pushes: LIVE_PUSHES, logger });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await feed?.stop();
  hub?.closeAll();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const live = async (user: Client): Promise<LiveClient> => {
  const client = await openLive(url, user.id);
  opened.push(client);
  return client;
};
const feedPushes = (client: LiveClient) => client.events.filter((e) => e.event === 'feed').map((e) => e.data as LiveFeedEvent);
const onTimeline = async (user: Client, author: Client, sessionId: string) => (await t.redis.zscore(t.timelines.key(user.id), memberOf({ authorId: author.id, sessionId }))) !== null;
const logged = async (author: Client, title: string) => (await t.logSession(author, { title })).id;

/**
 * Everything published on SESSIONS before now has reached the streams: the live feed
 * relays the stream in order, so once a marker published after it arrives at
 * `client`, an earlier push to `client` would have arrived first.
 */
async function relayedUpTo(client: Client, stream: LiveClient): Promise<void> {
  const marker = randomUUID();
  await t.publish('session.timeline.backfilled.v1', { userId: client.id, authorId: marker });
  await stream.waitFor((e) => e.event === 'feed' && (e.data as LiveFeedEvent).authorId === marker, `the marker on ${client.id}'s stream`, CONDITION_BOUND_MS);
}

describe("the backfill's live push", () => {
  it("reaches the person whose timeline a new friendship filled, once the sessions are on it, and nobody else", async () => {
    const author = await t.user({ private: true });
    const [follower, stranger] = [await t.user(), await t.user()];
    const sessions = [await logged(author, 'Earlier pints'), await logged(author, 'Earlier stouts')];
    // Active people, as anyone with the app open is: a backfill copies onto live timelines only (an absent one is rebuilt at the next read).
    await readFeeds(follower, author, stranger);
    const [followerStream, authorStream, strangerStream] = [await live(follower), await live(author), await live(stranger)];

    // The acceptance, not settled: the push must come by itself once the copy is written.
    await t.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: follower.id, recipientId: author.id });
    const pushed = await followerStream.waitFor((e) => e.event === 'feed', "the follower's feed push", CONDITION_BOUND_MS);
    expect(pushed.data).toEqual({ authorId: author.id } satisfies LiveFeedEvent);
    // Sent after the timeline write: at the push both sessions are there, and the feed the web refetches shows them.
    for (const id of sessions) expect(await onTimeline(follower, author, id), id).toBe(true);
    expect((await feedIds(follower)).sort()).toEqual([...sessions].sort());

    // The other way round the follower had nothing to copy: no push to the author, none to the stranger, and the follower's was one.
    await t.settle();
    await relayedUpTo(author, authorStream);
    await relayedUpTo(stranger, strangerStream);
    // Each has its marker only.
    expect(feedPushes(authorStream)).toHaveLength(1);
    expect(feedPushes(strangerStream)).toHaveLength(1);
    await relayedUpTo(follower, followerStream);
    expect(feedPushes(followerStream).filter((p) => p.authorId === author.id)).toHaveLength(1);
    const announced = (await readEvents(t.bus, 'SESSIONS', 'session.timeline.backfilled.v1')).filter((e) => e.data.authorId === author.id || e.data.authorId === follower.id);
    expect(announced.map((e) => e.data)).toEqual([{ userId: follower.id, authorId: author.id }]);
  });

  it('waits for the read model: a copy made before the graph commits the friendship is announced by that commit', async () => {
    const author = await t.user({ private: true });
    const follower = await t.user();
    const sessionId = await logged(author, 'Held pints');
    await readFeeds(follower, author);
    const followerStream = await live(follower);
    // The graph's read model cannot write `follows` while this transaction holds the table in share mode; reads go on.
    const lock = new pg.Client({ connectionString: t.config.DATABASE_URL });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE follows IN SHARE MODE');
    try {
      await t.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: follower.id, recipientId: author.id });
      // The fan-out copies (the event says "friends") while the read model waits for the lock.
      await eventually(() => onTimeline(follower, author, sessionId), 'the copy on the timeline', CONDITION_BOUND_MS);
      // The feed does not show a private author's session to someone not yet their friend here: nothing to announce.
      expect(await feedIds(follower)).toEqual([]);
      await relayedUpTo(follower, followerStream);
      expect(feedPushes(followerStream).filter((p) => p.authorId === author.id)).toEqual([]);
    } finally {
      await lock.query('COMMIT');
      await lock.end();
    }
    // The commit announces it (the fan-out looked before it and saw no friendship); at the push the feed shows it.
    await followerStream.waitFor((e) => e.event === 'feed' && (e.data as LiveFeedEvent).authorId === author.id, "the follower's feed push after the commit", CONDITION_BOUND_MS);
    expect(await feedIds(follower)).toEqual([sessionId]);
    await t.settle();
    const announced = (await readEvents(t.bus, 'SESSIONS', 'session.timeline.backfilled.v1')).filter((e) => e.data.authorId === author.id);
    expect(announced.map((e) => e.data)).toEqual([{ userId: follower.id, authorId: author.id }]);
  });

  it('follows a request and an unmute too: each is a copy onto the one timeline it concerns', async () => {
    const author = await t.user();
    const [asker, friend] = [await t.user(), await t.user()];
    await logged(author, 'Public pints');
    await t.befriend(author, friend);
    await t.publish('social.friend.muted.v1', { userId: friend.id, friendId: author.id });
    await t.settle();
    await readFeeds(asker, friend);
    const [askerStream, friendStream] = [await live(asker), await live(friend)];

    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: asker.id, recipientId: author.id });
    await t.publish('social.friend.unmuted.v1', { userId: friend.id, friendId: author.id });
    await askerStream.waitFor((e) => e.event === 'feed', "the asker's feed push", CONDITION_BOUND_MS);
    await friendStream.waitFor((e) => e.event === 'feed', "the unmuting friend's feed push", CONDITION_BOUND_MS);
    expect(feedPushes(askerStream)).toEqual([{ authorId: author.id }]);
    expect(feedPushes(friendStream)).toEqual([{ authorId: author.id }]);
  });
});
