import type { EventData, EventEnvelope } from '@hoptrack/proto';
import { audienceInbox, startEffectConsumers, type Bus, type Effects as EffectsOf, type Logger, type Outbox, type RunningConsumer, type SqlClient, type TransactionalSqlClient } from '@hoptrack/runtime';
import { InboxWriter, type OnAdded } from '../domain/inbox';
import { announceChanges } from '../domain/notifications';
import { challengeRefsRepository as challenges } from '../repositories/challenge-refs.repository';
import { sessionRefsRepository as sessions, type SessionRef } from '../repositories/session-refs.repository';

/**
 * Commenters told of a later comment on a session: the most recent ones. A
 * session with hundreds of commenters does not write hundreds of rows per comment.
 */
export const FOLLOWERS_PER_COMMENT = 50;

/** What an event does to inboxes: the recipients whose inbox changed. */
type Effects = EffectsOf<SqlClient, string[]>;

const at = (event: EventEnvelope) => new Date(event.occurredAt);
/** What the inbox keeps of a created or updated session: whose it is and its title (absent on events from before titles). */
const sessionRef = (data: EventData<'session.created.v1'>): SessionRef => ({ sessionId: data.sessionId, ownerId: data.userId, title: data.title ?? null, updatedAt: data.updatedAt, version: data.version ?? 0 });

function effects(inbox: InboxWriter): Record<'SOCIAL' | 'SESSIONS' | 'MESSAGES' | 'CHALLENGES', Effects> {
  const interaction = (tx: SqlClient, data: EventData<'session.liked.v1'>, when: Date) => sessions.ensure(tx, data.sessionId, data.ownerId, when);
  return {
    SOCIAL: {
      'social.friendship.requested.v1': (tx, e) =>
        inbox.add(tx, { recipientId: e.data.recipientId, kind: 'friend.requested', targetId: e.data.requesterId, actorId: e.data.requesterId, sourceId: e.data.friendshipId, at: at(e) }),
      // The request is answered: its entry goes, and the requester hears of the yes.
      'social.friendship.accepted.v1': async (tx, e) => [
        ...(await inbox.retract(tx, { kind: 'friend.requested', targetId: e.data.requesterId, sourceId: e.data.friendshipId, recipientId: e.data.recipientId })),
        ...(await inbox.add(tx, { recipientId: e.data.requesterId, kind: 'friend.accepted', targetId: e.data.recipientId, actorId: e.data.recipientId, sourceId: e.data.friendshipId, at: at(e) })),
      ],
      // Declined or withdrawn: the request's entry goes (a no is not announced).
      'social.friendship.rejected.v1': (tx, e) =>
        inbox.retract(tx, { kind: 'friend.requested', targetId: e.data.requesterId, sourceId: e.data.friendshipId, recipientId: e.data.recipientId }),
    },
    SESSIONS: {
      'session.created.v1': async (tx, e) => {
        await sessions.upsert(tx, sessionRef(e.data));
        return [];
      },
      'session.updated.v1': async (tx, e) => {
        await sessions.upsert(tx, sessionRef(e.data));
        return [];
      },
      // Everything the session caused goes with it, in every inbox.
      'session.deleted.v1': async (tx, e) => {
        const changed = await inbox.dropTarget(tx, e.data.sessionId);
        await sessions.forget(tx, e.data.sessionId);
        return changed;
      },
      'session.liked.v1': async (tx, e) => {
        await interaction(tx, e.data, at(e));
        return inbox.add(tx, { recipientId: e.data.ownerId, kind: 'session.liked', targetId: e.data.sessionId, actorId: e.data.userId, sourceId: e.data.userId, at: at(e) });
      },
      'session.unliked.v1': (tx, e) => inbox.retract(tx, { kind: 'session.liked', targetId: e.data.sessionId, sourceId: e.data.userId }),
      'session.reacted.v1': async (tx, e) => {
        await interaction(tx, e.data, at(e));
        const sourceId = `${e.data.emoji}:${e.data.userId}`;
        return inbox.add(tx, { recipientId: e.data.ownerId, kind: 'session.reacted', targetId: e.data.sessionId, actorId: e.data.userId, sourceId, at: at(e) });
      },
      'session.unreacted.v1': (tx, e) => inbox.retract(tx, { kind: 'session.reacted', targetId: e.data.sessionId, sourceId: `${e.data.emoji}:${e.data.userId}` }),
      'session.commented.v1': async (tx, e) => {
        const when = at(e);
        await interaction(tx, e.data, when);
        const earlier = await sessions.latestCommenters(tx, e.data.sessionId, FOLLOWERS_PER_COMMENT);
        await sessions.recordComment(tx, e.data.sessionId, e.data.userId, when);
        const base = { targetId: e.data.sessionId, actorId: e.data.userId, sourceId: e.data.commentId, at: when };
        const changed = await inbox.add(tx, { ...base, recipientId: e.data.ownerId, kind: 'session.commented' });
        for (const commenter of earlier) {
          if (commenter === e.data.ownerId) continue;
          changed.push(...(await inbox.add(tx, { ...base, recipientId: commenter, kind: 'comment.followed' })));
        }
        return changed;
      },
      'session.comment.deleted.v1': async (tx, e) => [
        ...(await inbox.retract(tx, { kind: 'session.commented', targetId: e.data.sessionId, sourceId: e.data.commentId })),
        ...(await inbox.retract(tx, { kind: 'comment.followed', targetId: e.data.sessionId, sourceId: e.data.commentId })),
      ],
    },
    MESSAGES: {
      'message.sent.v1': (tx, e) =>
        inbox.add(tx, { recipientId: e.data.recipientId, kind: 'message.received', targetId: e.data.senderId, actorId: e.data.senderId, sourceId: e.data.messageId, at: at(e) }),
      // The conversation was read (it is open, or was opened): its entry has nothing left to say.
      'message.read.v1': (tx, e) => inbox.dropTarget(tx, e.data.senderId, { kind: 'message.received', recipientId: e.data.readerId }),
    },
    CHALLENGES: {
      // Published once per person and challenge (again only after a withdrawal and new evidence); the person is the actor ("You completed …").
      'challenge.completed.v1': async (tx, e) => {
        await challenges.remember(tx, e.data.challengeId, e.data.title, at(e));
        return inbox.add(tx, { recipientId: e.data.userId, kind: 'challenge.completed', targetId: e.data.challengeId, actorId: e.data.userId, sourceId: e.data.userId, at: at(e) });
      },
      // The evidence that completed it is gone: "You completed …" is no longer true, so its contribution goes.
      'challenge.completion.withdrawn.v1': (tx, e) =>
        inbox.retract(tx, { kind: 'challenge.completed', targetId: e.data.challengeId, sourceId: e.data.userId, recipientId: e.data.userId }),
      // Invitations to one challenge group into one entry ("Alice and Bob invited you to …"), each its own contribution.
      'challenge.invited.v1': async (tx, e) => {
        await challenges.remember(tx, e.data.challengeId, e.data.title, at(e));
        return inbox.add(tx, { recipientId: e.data.toUserId, kind: 'challenge.invited', targetId: e.data.challengeId, actorId: e.data.fromUserId, sourceId: e.data.invitationId, at: at(e) });
      },
      // Accepted or declined, the invitation has nothing left to ask: its contribution goes (an answer is not announced).
      'challenge.invitation.answered.v1': (tx, e) =>
        inbox.retract(tx, { kind: 'challenge.invited', targetId: e.data.challengeId, sourceId: e.data.invitationId, recipientId: e.data.toUserId }),
    },
  };
}

export interface NotificationConsumersOptions {
  bus: Bus;
  /** Plain SQL over the pool Prisma shares: the inbox transaction of every event (db.ts). */
  sql: TransactionalSqlClient;
  outbox: Outbox;
  /** Durable-name prefix: `<prefix>-social`, `-sessions`, `-messages`, `-challenges`. */
  durable: string;
  logger: Logger;
  onEventsCommitted: () => void;
  /** Each new contribution, in its transaction: the mail digests remember what to mail. */
  onAdded?: OnAdded;
}

/**
 * One durable consumer per stream the inbox listens to. Each event runs in
 * the inbox transaction (a replay is skipped whole) and ends by writing a
 * `notification.changed.v1` for every person whose inbox it changed.
 */
export function startNotificationConsumers(options: NotificationConsumersOptions): Promise<RunningConsumer[]> {
  return startEffectConsumers<SqlClient, string[]>({
    bus: options.bus,
    durable: options.durable,
    logger: options.logger.child({ component: 'notifications-inbox' }),
    inbox: audienceInbox<SqlClient>(options.sql),
    streams: effects(new InboxWriter(options.onAdded)),
    then: (tx, changed, event) => announceChanges(options.outbox, tx, changed, event.requestId),
    afterCommit: options.onEventsCommitted,
  });
}
