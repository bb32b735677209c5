import type { Friend } from '@hoptrack/proto';
import { BlockButton, MuteToggle, PinToggle, UnfriendButton } from '../social/FriendActions';
import { UserCard } from '../social/UserCard';
import { FriendsList } from './FriendsList';

/** /friends-enhanced 'Friends': every friend with Pin/Unpin, Mute/Unmute, Block and Unfriend. */
export function ManageFriendsPanel({ pinnedCount, onFindFriends }: { pinnedCount?: number; onFindFriends: () => void }) {
  return (
    <FriendsList label="Friends" onFindFriends={onFindFriends}>
      {(friend) => (
        <UserCard
          key={friend.id}
          user={friend}
          open="link"
          meta={(friend.isPinned || friend.isMuted) && <FriendBadges friend={friend} />}
          actions={
            <>
              <PinToggle friend={friend} pinned={friend.isPinned} pinnedCount={pinnedCount} />
              <MuteToggle friend={friend} muted={friend.isMuted} />
              <BlockButton friend={friend} />
              <UnfriendButton friend={friend} />
            </>
          }
        />
      )}
    </FriendsList>
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
