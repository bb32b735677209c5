import { useQuery } from '@tanstack/react-query';
import type { Friend } from '@hoptrack/proto';
import { friendsQuery } from '../../lib/socialApi';
import { PresenceScope } from '../presence/Presence';
import { personCard, type PersonCardParts } from '../social/PeopleList';
import { QueryUserList } from '../social/UserList';

interface FriendsListProps extends PersonCardParts<Friend> {
  label: string;
  /** The empty state's call to action: switch to the Find Friends tab. */
  onFindFriends: () => void;
}

/** My friends (GET /api/me/friends), shared by /friends 'My Friends' and /friends-enhanced 'Friends', with a dot on those online; each a people-list card (personCard). */
export function FriendsList({ label, onFindFriends, ...card }: FriendsListProps) {
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
        {personCard(card)}
      </QueryUserList>
    </PresenceScope>
  );
}
