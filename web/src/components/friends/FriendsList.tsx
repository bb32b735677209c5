import { useQuery } from '@tanstack/react-query';
import type { Friend } from '@hoptrack/proto';
import type { ReactNode } from 'react';
import { friendsQuery } from '../../lib/socialApi';
import { PresenceScope } from '../presence/Presence';
import { QueryUserList } from '../social/UserList';

interface FriendsListProps {
  label: string;
  /** The empty state's call to action: switch to the Find Friends tab. */
  onFindFriends: () => void;
  /** Renders one friend as a `<UserCard>`. */
  children: (friend: Friend) => ReactNode;
}

/** My friends (GET /api/me/friends), shared by /friends 'My Friends' and /friends-enhanced 'Friends', with a dot on those online. */
export function FriendsList({ label, onFindFriends, children }: FriendsListProps) {
  const friends = useQuery(friendsQuery());
  return (
    <PresenceScope ids={friends.data?.map((friend) => friend.id) ?? []}>
      <QueryUserList
        label={label}
        query={friends}
        errorText="Could not load your friends."
        empty={{
          title: 'No friends yet',
          text: 'Find people you know and send them a friend request.',
          action: (
            <button type="button" className="button button--primary" onClick={onFindFriends}>
              Find Friends
            </button>
          ),
        }}
      >
        {children}
      </QueryUserList>
    </PresenceScope>
  );
}
