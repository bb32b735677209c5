import type { EventData, UserSnapshot } from '@hoptrack/proto';
import type { LiveReactions } from '../live/feed';

/**
 * The audience's part in live streams, given to the platform's live feed
 * (startLiveFeed's `reactions`): what the people and their relationships do
 * to the streams as such, not pushes. A password change closes the streams
 * opened with an older token, a device signed out, a deletion or a block ends them; the clients
 * reconnect (refused with 401 where the token is no longer current) and
 * refetch without what they may no longer see.
 */
export const audienceLiveReactions: LiveReactions = {
  USERS(event, hub) {
    // The account is gone (its tokens are refused from now on): its streams close.
    if (event.type === 'user.deleted.v1') {
      const { userId } = event.data as EventData<'user.deleted.v1'>;
      hub.disconnect([userId], 'account deleted');
    } else if (event.type === 'user.device.revoked.v1') {
      // A device signed out (issue 40): the person's streams close; the signed-out one's reconnect is refused with 401.
      const { userId } = event.data as EventData<'user.device.revoked.v1'>;
      hub.disconnect([userId], 'device signed out');
    } else if (event.type === 'user.updated.v1') {
      const user = event.data as UserSnapshot;
      hub.revoke(user.id, user.tokenVersion);
    }
  },
  // A block ends both people's streams; their clients reconnect and refetch without each other.
  SOCIAL(event, hub) {
    if (event.type === 'social.user.blocked.v1') {
      const { blockerId, blockedId } = event.data as EventData<'social.user.blocked.v1'>;
      hub.disconnect([blockerId, blockedId], 'relationship changed');
    }
  },
};
