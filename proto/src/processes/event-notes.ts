import type { EventType } from '../events';

/**
 * When each event is published, for the event catalogue (docs/architecture.md,
 * generated). Exhaustive over the event types: a new event without a note
 * fails typecheck.
 */
export const EVENT_NOTES: { readonly [T in EventType]: string } = {
  'user.registered.v1': 'an account is created (API or seed); the whole `userSnapshot`',
  'user.updated.v1':
    'any snapshot field really changes: privacy switches, display name, bio, profile picture, password reset or change (tokenVersion), a changed e-mail once its link is opened; the whole new state, so consumers upsert and an older snapshot never overwrites a newer one',
  'user.deleted.v1':
    '`DELETE /api/me`: the account row is gone; the answer waits until every USERS consumer applied it. Audience consumers drop the person and keep a `sha256(id)` tombstone; each `<prefix>-erasure` consumer erases what its service holds. Sent again by auth a grace after every service reported (`ERASURE_RESWEEP_MS`): the second pass erases what writes in flight at the deletion committed after the first',
  'user.device.revoked.v1':
    '`DELETE /api/me/devices/:id` (the app\'s "Sign out" too): the sign-in\'s row is gone; the answer waits until every USERS consumer applied it. Audience consumers keep the device in `revoked_devices` (and Redis) until `expiresAt`, when its tokens would have expired anyway, and refuse tokens whose `sid` is that device',
  'user.changes.requested.v1':
    'a service\'s people consumer started after its stream had deleted events it never read (its position in `consumer_positions` is before the stream\'s first event); straight to the bus at its start (msg id per consumer and gap). Auth re-announces the accounts changed and the deletions recorded since the consumer was last caught up, less an hour',
  'user.erased.v1':
    'a service erased everything of the person; straight to the bus (msg id `erased:<service>:<deletion id>`, not the outbox, whose rows must not name the person). `deletedSeq` is where the deletion it answers is stored: auth queues that message and the report for its stream purger (deleted by sequence once every consumer has them). With the last of the second pass, auth forgets its own events of the person, scrubs the Redis keys and dead letters',
  'user.export.requested.v1': '`POST /api/me/export` starts an export; every exporting service writes its part to the `<NAMESPACE>_EXPORTS` object store',
  'user.export.contributed.v1': 'a service\'s part is in the object store (straight to the bus, msg id per service and request); media builds the zip once all are in, and queues the message for its stream purger (it names the person, and no outbox row records it)',
  'user.export.ready.v1': 'the zip is in S3 (outbox) until `expiresAt`, and the person\'s earlier zips are gone; auth marks the export ready, the earlier ones expired, and mails the person',
  'social.friendship.requested.v1': 'A asks B (A now follows B)',
  'social.friendship.accepted.v1': 'B accepts (or B asks A back): friends both ways',
  'social.friendship.rejected.v1': 'B rejects, or A withdraws the request (`DELETE /api/friendships/{id}`); the request is gone',
  'social.friendship.removed.v1': 'unfriend: neither follows the other',
  'social.user.blocked.v1': 'a block; any friendship or request between the two is gone',
  'social.user.unblocked.v1': 'the block is lifted (no friendship comes back)',
  'social.friend.muted.v1': 'userId hides friendId\'s sessions in their feed',
  'social.friend.unmuted.v1': 'userId shows friendId\'s sessions again',
  'social.friend.pinned.v1': 'userId pins friendId (at `order`)',
  'social.friend.unpinned.v1': 'userId unpins friendId',
  'media.photo.stored.v1': 'an album photo\'s original is in S3 and waits for the thumbnail worker',
  'media.photo.processed.v1': 'thumbnail and display versions exist; the photo is ready',
  'media.photo.failed.v1': 'the original cannot be decoded; no retry',
  'media.photo.deleted.v1': 'the photo and its files are gone (its owner deleted it, or its album)',
  'session.created.v1': 'a beer session is logged (`title` since issue 22; `beerTypes`, `location`, `hasMusic` since issue 23: added optional fields, the one edit the contract allows)',
  'session.updated.v1': 'it is edited; the whole new state',
  'session.deleted.v1': 'it is deleted (with its likes, comments, reactions)',
  'session.liked.v1': 'a like is added (only a real change: liking twice publishes once)',
  'session.unliked.v1': 'a like is taken back',
  'session.commented.v1': 'a comment is added',
  'session.comment.edited.v1': 'a comment\'s author changes its text (only the session\'s card read model follows it: no other service keeps comment text)',
  'session.comment.deleted.v1': 'a comment is deleted (by its author or the session\'s owner, `userId`)',
  'session.reacted.v1': 'a reaction is added',
  'session.unreacted.v1': 'a reaction is taken back',
  'session.timeline.backfilled.v1':
    'a backfill (a request, a new friendship, an unmute) wrote at least one of authorId\'s sessions onto userId\'s timeline and the sessions read model has committed the relationship: whichever of the two comes second publishes it (the fan-out, or the sessions service after the graph commit), straight to the bus with the backfill\'s msg id, so it goes once. The live hub pushes `feed` to userId only, whose feed refetches',
  'place.review.created.v1': 'a bar is reviewed (one review per person and bar; a changed review is a new one)',
  'place.review.deleted.v1': 'a review is deleted',
  'message.sent.v1': 'a direct message is stored (either API); the live hub pushes it to both participants',
  'message.read.v1': 'the recipient read messages (opening a conversation, or one in /dm)',
  'notification.changed.v1': 'a person\'s inbox changed (a new or regrouped entry, a retraction, a read, a setting); the live hub pushes the bell\'s count',
  'challenge.completed.v1': 'a person\'s progress reaches a challenge\'s target; once per person and challenge, again only after a withdrawal and new evidence',
  'challenge.completion.withdrawn.v1':
    'a completed challenge\'s progress falls below its target (a session, review or photo it counted was deleted or changed); the row is open again, the notification goes',
  'challenge.invited.v1': 'fromUserId invites toUserId (a friend) to a challenge',
  'challenge.invitation.answered.v1': 'toUserId accepts or declines',
  'presence.changed.v1':
    'a person went online or offline (after the grace), or turned Show Online Status off or on; core NATS only, published once by the instance that saw it and lost harmlessly if nobody listens (clients refetch presence on every reconnect)',
};
