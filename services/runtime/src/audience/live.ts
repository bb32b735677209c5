import type { LiveReactions } from '../live/feed';
import { isRestricted } from './people';

/**
 * The audience's part in live streams, given to the platform's live feed
 * (startLiveFeed's `reactions`): what the people and their relationships do
 * to the streams as such, not pushes. A password change closes the streams
 * opened with an older token, a device signed out, a deletion or a block ends them; the clients
 * reconnect (refused with 401 where the token is no longer current) and
 * refetch without what they may no longer see.
 */
export const audienceLiveReactions: LiveReactions = {
  // The account is gone (its tokens are refused from now on): its streams close.
  'user.deleted.v1'({ data }, hub) {
    hub.disconnect([data.userId], 'account deleted');
  },
  // A device signed out (issue 40): the person's streams close; the signed-out one's reconnect is refused with 401.
  'user.device.revoked.v1'({ data }, hub) {
    hub.disconnect([data.userId], 'device signed out');
  },
  'user.updated.v1'({ data }, hub) {
    hub.revoke(data.id, data.tokenVersion);
    // Suspended or banned (issue 42): every stream of theirs closes; the reconnect is refused with 401.
    if (isRestricted({ banned: data.banned ?? false, suspendedUntil: data.suspendedUntil ?? null }, Date.now())) hub.disconnect([data.id], 'account restricted');
  },
  // A block ends both people's streams; their clients reconnect and refetch without each other.
  'social.user.blocked.v1'({ data }, hub) {
    hub.disconnect([data.blockerId, data.blockedId], 'relationship changed');
  },
};
