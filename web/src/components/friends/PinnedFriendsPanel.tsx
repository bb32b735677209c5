import type { UseQueryResult } from '@tanstack/react-query';
import type { Friend } from '@hoptrack/proto';
import { MAX_PINNED_FRIENDS } from '@hoptrack/proto/constants';
import { MovePinButtons, PinToggle } from '../social/FriendActions';
import { UserCard } from '../social/UserCard';
import { QueryUserList } from '../social/UserList';

/**
 * 'Pinned (n/5)': the pinned friends in their order, each with Move up / Move
 * down and Unpin. The page owns the query (the tab label counts it).
 */
export function PinnedFriendsPanel({ pinned }: { pinned: UseQueryResult<Friend[]> }) {
  return (
    <QueryUserList
      label="Pinned friends"
      query={pinned}
      errorText="Could not load your pinned friends."
      empty={{
        title: 'No pinned friends',
        text: `Pin up to ${MAX_PINNED_FRIENDS} friends from the Friends tab to keep them at the top.`,
      }}
    >
      {(friend, index) => (
        <UserCard
          key={friend.id}
          user={friend}
          open="link"
          meta={friend.bio}
          actions={
            <>
              <MovePinButtons friend={friend} index={index} count={pinned.data?.length ?? 0} />
              <PinToggle friend={friend} pinned />
            </>
          }
        />
      )}
    </QueryUserList>
  );
}
