import type { Friend } from '@hoptrack/proto';
import { BlockButton, MuteToggle, PinToggle, UnfriendButton } from '../social/FriendActions';
import { FriendsList } from './FriendsList';

/** /friends-enhanced 'Friends': every friend with Pin/Unpin, Mute/Unmute, Block and Unfriend. */
export function ManageFriendsPanel({ pinnedCount, onFindFriends }: { pinnedCount?: number; onFindFriends: () => void }) {
  return (
    <FriendsList
      label="Friends"
      onFindFriends={onFindFriends}
      meta={(friend) => (friend.isPinned || friend.isMuted) && <FriendBadges friend={friend} />}
      actions={(friend) => (
        <>
          <PinToggle friend={friend} pinned={friend.isPinned} pinnedCount={pinnedCount} />
          <MuteToggle friend={friend} muted={friend.isMuted} />
          <BlockButton friend={friend} />
          <UnfriendButton friend={friend} />
        </>
      )}
    />
  );
}

function FriendBadges({ friend }: { friend: Friend }) {
  return (
    <span className="badge-row">
      {friend.isPinned && <span className="badge">Pinned</span>}
      {friend.isMuted && <span className="badge badge--muted">Muted</span>}
    </span>
  );
}
