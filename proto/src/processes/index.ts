import { streamOf, type EventType, type StreamName } from '../events';
import { defineProcesses, type ProcessContract } from './define';

export * from './define';

/** What the audience module's consumers read in every service that keeps the part (runtime startAudience). */
const PEOPLE = ['user.registered.v1', 'user.updated.v1', 'user.deleted.v1', 'user.device.revoked.v1'] as const satisfies readonly EventType[];
/** A people read model that missed events asks auth for the changes since (runtime audience/consumer.ts). */
const ASKS_PEOPLE_CHANGES = ['user.changes.requested.v1'] as const satisfies readonly EventType[];
const GRAPH = [
  'social.friendship.requested.v1',
  'social.friendship.accepted.v1',
  'social.friendship.rejected.v1',
  'social.friendship.removed.v1',
  'social.user.blocked.v1',
  'social.user.unblocked.v1',
  'social.friend.muted.v1',
  'social.friend.unmuted.v1',
] as const satisfies readonly EventType[];
/** An erasing service reads the deletion and reports its part; an exporting one reads the request and reports its part. */
const ERASES = { consumes: ['user.deleted.v1'], publishes: ['user.erased.v1'] } as const;
const EXPORTS = { consumes: ['user.export.requested.v1'], publishes: ['user.export.contributed.v1'] } as const;
const SESSION_CHANGES = ['session.created.v1', 'session.updated.v1', 'session.deleted.v1'] as const satisfies readonly EventType[];
const SESSION_INTERACTIONS = [
  'session.liked.v1',
  'session.unliked.v1',
  'session.commented.v1',
  'session.comment.deleted.v1',
  'session.reacted.v1',
  'session.unreacted.v1',
] as const satisfies readonly EventType[];

/**
 * Every process that publishes or consumes events, and its part of an
 * account's lifecycle: the contract each one is held to at start
 * (runtime assembleService), and the source of the event catalogue.
 */
export const PROCESS_CONTRACTS = defineProcesses({
  auth: {
    service: 'auth',
    role: 'accounts, sessions of sign-in, tokens; coordinates erasure and export',
    publishes: ['user.registered.v1', 'user.updated.v1', 'user.deleted.v1', 'user.device.revoked.v1', 'user.export.requested.v1', ...EXPORTS.publishes],
    consumes: ['user.erased.v1', 'user.export.ready.v1', ...ASKS_PEOPLE_CHANGES, ...EXPORTS.consumes],
    lifecycle: { export: true },
  },
  'social-graph': {
    service: 'social-graph',
    role: 'friendships, blocks, mutes, pins; stat tiles',
    publishes: [...GRAPH, 'social.friend.pinned.v1', 'social.friend.unpinned.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...SESSION_CHANGES, ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
  media: {
    service: 'media',
    role: 'albums, photos, files; assembles data exports',
    publishes: ['media.photo.stored.v1', 'media.photo.deleted.v1', 'user.export.ready.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...GRAPH, 'user.export.contributed.v1', ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
  'media-worker': {
    service: 'media',
    role: 'album thumbnails (BullMQ)',
    publishes: ['media.photo.processed.v1', 'media.photo.failed.v1'],
    consumes: ['media.photo.stored.v1'],
  },
  places: {
    service: 'places',
    role: 'bars, beers, reviews',
    publishes: ['place.review.created.v1', 'place.review.deleted.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...GRAPH, ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
  sessions: {
    service: 'sessions',
    role: 'beer sessions, likes, comments, reactions; the feed',
    // The backfill's announcement too, when the graph's read model commits after the fan-out's copy (feed/backfill-announce.ts).
    publishes: [...SESSION_CHANGES, ...SESSION_INTERACTIONS, 'session.comment.edited.v1', 'session.timeline.backfilled.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...GRAPH, 'session.updated.v1', 'session.deleted.v1', ...SESSION_INTERACTIONS, 'session.comment.edited.v1', ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
  'sessions-fanout': {
    service: 'sessions',
    role: 'feed fan-out into Redis timelines (first batch in its consumer, the rest as BullMQ jobs)',
    publishes: ['session.timeline.backfilled.v1'],
    consumes: [
      'session.created.v1',
      'session.deleted.v1',
      'social.friendship.requested.v1',
      'social.friendship.accepted.v1',
      'social.friendship.rejected.v1',
      'social.friendship.removed.v1',
      'social.user.blocked.v1',
      'social.friend.muted.v1',
      'social.friend.unmuted.v1',
    ],
  },
  messaging: {
    service: 'messaging',
    role: 'conversations, messages; the live stream',
    publishes: ['message.sent.v1', 'message.read.v1', 'presence.changed.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...GRAPH, ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
  notifications: {
    service: 'notifications',
    role: 'each person\'s notifications; digests by mail',
    publishes: ['notification.changed.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [
      ...PEOPLE,
      ...GRAPH,
      ...SESSION_CHANGES,
      ...SESSION_INTERACTIONS,
      'message.sent.v1',
      'message.read.v1',
      'challenge.completed.v1',
      'challenge.completion.withdrawn.v1',
      'challenge.invited.v1',
      'challenge.invitation.answered.v1',
      ...ERASES.consumes,
      ...EXPORTS.consumes,
    ],
    lifecycle: { erase: true, export: true },
  },
  challenges: {
    service: 'challenges',
    role: 'daily challenges, progress, invitations',
    publishes: ['challenge.completed.v1', 'challenge.completion.withdrawn.v1', 'challenge.invited.v1', 'challenge.invitation.answered.v1', ...ASKS_PEOPLE_CHANGES, ...ERASES.publishes, ...EXPORTS.publishes],
    consumes: [...PEOPLE, ...GRAPH, ...SESSION_CHANGES, 'media.photo.stored.v1', 'media.photo.deleted.v1', 'place.review.created.v1', 'place.review.deleted.v1', ...ERASES.consumes, ...EXPORTS.consumes],
    lifecycle: { erase: true, export: true },
  },
} satisfies Record<string, ProcessContract>);

export type ProcessName = keyof typeof PROCESS_CONTRACTS;
export const PROCESS_NAMES = Object.keys(PROCESS_CONTRACTS) as ProcessName[];

type Promising<Part extends 'erase' | 'export'> = {
  [N in ProcessName]: (typeof PROCESS_CONTRACTS)[N] extends { lifecycle: { [P in Part]: true } } ? N : never;
}[ProcessName];
/** The services that erase a deleted person and report it (auth erases its own rows in the request). */
export type ErasingService = Promising<'erase'>;
/** The services whose parts make an export (auth's own part included); media assembles the zip once all are in. */
export type ExportingService = Promising<'export'>;
const promising = <Part extends 'erase' | 'export'>(part: Part) =>
  PROCESS_NAMES.filter((name) => (PROCESS_CONTRACTS[name] as ProcessContract).lifecycle?.[part]) as Array<Promising<Part>>;
/**
 * The streams a process's connections ensure: those of every event its
 * contract says it publishes or consumes (presence, on core NATS, has none).
 * Several names for connections that processes share (an API and its worker).
 */
export function processStreams(...names: ProcessName[]): StreamName[] {
  const types = names.flatMap((name) => {
    const contract: ProcessContract = PROCESS_CONTRACTS[name];
    return [...contract.publishes, ...contract.consumes];
  });
  return [...new Set(types.map(streamOf).filter((stream): stream is StreamName => stream !== null))];
}
export const ERASING_SERVICES: readonly ErasingService[] = promising('erase');
export const EXPORTING_SERVICES: readonly ExportingService[] = promising('export');
export { EVENT_NOTES } from './event-notes';
