import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LiveEventName } from '@hoptrack/proto';
import { useEffect } from 'react';
import { api, errorStatus } from '../api';
import { CURRENT_USER_KEY } from './authApi';
import { refreshChallenges } from './challengesApi';
import { refreshAllMessaging, refreshConversation } from './messagingApi';
import { applyUnreadCount, refreshNotifications } from './notificationsApi';
import { applyPresence, forgetPushedPresence, refreshPresence } from './presenceApi';
import { refreshFeed } from './sessionsApi';
import { refreshFriendships } from './socialApi';
import { SseParser, type SseEvent } from './sse';
import { readStoredToken } from './tokenStorage';

/** Waits before reconnecting: doubles from the first to the last after each failed attempt. */
export const LIVE_RETRY_FIRST_MS = 1_000;
export const LIVE_RETRY_MAX_MS = 30_000;

/**
 * The viewer's live stream (GET /api/messages/events), open while signed in.
 * A new message or a read receipt refetches what it changes; a
 * `notifications` event sets the bell's count and refetches the inbox; a
 * `presence` event moves a friend's online dot; a `challenges` event (an
 * invitation answered) refetches the challenge reads; a `friends` event (a
 * request or a friendship between the viewer and someone changed) refetches
 * the social reads, and a new friendship the presence (issue 40, item 8); a
 * `feed` event (someone's earlier sessions were copied onto the viewer's
 * timeline, after a new friendship, a request or an unmute) refetches the
 * feed; every `ready` (the
 * first connect and each reconnect) refetches every messaging, notification,
 * presence and challenge read, since events may have been missed meanwhile. The stream is read with
 * fetch, not EventSource, which cannot send the Bearer header. When it ends or
 * fails it reconnects after a growing pause; when it is refused (401: the
 * server ends the streams of a revoked token, and the reconnect is refused)
 * it asks /api/me again, whose 401 signs the tab out without a click; signing out or unmounting aborts
 * it quietly.
 */
export function useLiveMessaging(viewerId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!viewerId) return;
    const controller = new AbortController();
    // An event whose schemas fail to load (a new deploy removed the chunk) is dropped: the next `ready` refetches everything.
    // Refused (the password was changed, this device signed out elsewhere): /api/me is asked again, whose 401 signs the tab out at once.
    const refused = () => void queryClient.refetchQueries({ queryKey: CURRENT_USER_KEY, exact: true }, { cancelRefetch: false });
    void followStream(controller.signal, (event) => void applyEvent(queryClient, viewerId, event).catch(() => undefined), refused);
    return () => controller.abort();
  }, [viewerId, queryClient]);
}

/**
 * The events' schemas come with zod and the rest of proto's index, loaded on
 * the first event that needs them rather than with the first screen.
 */
const eventSchemas = () => import('@hoptrack/proto');

/** The pushed events this client acts on (`ready` is handled before; anything else is dropped unread). */
const PUSHED: ReadonlySet<string> = new Set<LiveEventName>(['message', 'read', 'notifications', 'presence', 'challenges', 'friends', 'feed']);

async function applyEvent(queryClient: QueryClient, viewerId: string, { event, data }: SseEvent): Promise<void> {
  if (event === 'ready') {
    void refreshAllMessaging(queryClient);
    void refreshNotifications(queryClient);
    forgetPushedPresence();
    void refreshPresence(queryClient);
    void refreshChallenges(queryClient, viewerId);
    return;
  }
  if (!PUSHED.has(event)) return;
  const json = parseJson(data);
  const { liveMessageEvent, liveReadEvent, liveNotificationsEvent, livePresenceEvent, liveChallengesEvent, liveFriendsEvent, liveFeedEvent } = await eventSchemas();
  if (event === 'feed') {
    if (liveFeedEvent.safeParse(json).success) refreshFeed(queryClient);
  } else if (event === 'friends') {
    const parsed = liveFriendsEvent.safeParse(json);
    if (!parsed.success) return;
    void refreshFriendships(queryClient);
    // Not the feed: the new friend's sessions reach the timeline later, and their own push (`feed`) says so.
    if (parsed.data.change === 'accepted') {
      void refreshPresence(queryClient);
    } else if (parsed.data.change === 'removed') {
      forgetPushedPresence(parsed.data.userIds);
    }
  } else if (event === 'challenges') {
    if (liveChallengesEvent.safeParse(json).success) void refreshChallenges(queryClient, viewerId);
  } else if (event === 'presence') {
    const parsed = livePresenceEvent.safeParse(json);
    if (parsed.success) applyPresence(queryClient, parsed.data);
  } else if (event === 'notifications') {
    const parsed = liveNotificationsEvent.safeParse(json);
    if (parsed.success) void applyUnreadCount(queryClient, parsed.data.unreadCount);
  } else if (event === 'message') {
    const parsed = liveMessageEvent.safeParse(json);
    if (!parsed.success) return;
    const { conversationId, senderId, recipientId } = parsed.data;
    void refreshConversation(queryClient, conversationId, senderId === viewerId ? recipientId : senderId);
  } else if (event === 'read') {
    const parsed = liveReadEvent.safeParse(json);
    if (!parsed.success) return;
    const { conversationId, readerId, senderId } = parsed.data;
    void refreshConversation(queryClient, conversationId, readerId === viewerId ? senderId : readerId);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Connects, reads, reconnects; resolves (never rejects) once `signal` aborts or the token is gone. */
async function followStream(signal: AbortSignal, onEvent: (event: SseEvent) => void, onRefused: () => void): Promise<void> {
  let retryMs = LIVE_RETRY_FIRST_MS;
  while (!signal.aborted) {
    if (!readStoredToken()) return;
    try {
      await readStream(signal, (event) => {
        // Subscribed: the connection works, so the next drop retries quickly again.
        if (event.event === 'ready') retryMs = LIVE_RETRY_FIRST_MS;
        onEvent(event);
      });
    } catch (error) {
      // Refused (401): the token is dead; no retry with it. Dropped or aborted: the pause below, then a new attempt.
      if (errorStatus(error) === 401) return onRefused();
    }
    await pause(retryMs, signal);
    retryMs = Math.min(retryMs * 2, LIVE_RETRY_MAX_MS);
  }
}

/** One connection (messaging.live, with the stored token): its events until it ends; an ApiError when refused. */
async function readStream(signal: AbortSignal, onEvent: (event: SseEvent) => void): Promise<void> {
  const res = await api.messaging.live.response({ headers: { Accept: 'text/event-stream' }, cache: 'no-store', signal });
  if (!res.body) throw new Error(`live stream without a body: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const event of parser.push(value)) onEvent(event);
    }
  } finally {
    reader.releaseLock();
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      window.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
