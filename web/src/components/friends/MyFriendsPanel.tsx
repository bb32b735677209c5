import { MessageLink } from '../social/MessageLink';
import { UserCard } from '../social/UserCard';
import { FriendsList } from './FriendsList';

/** 'My Friends': each card opens the friend's profile and offers a message. */
export function MyFriendsPanel({ onFindFriends }: { onFindFriends: () => void }) {
  return (
    <FriendsList label="My friends" onFindFriends={onFindFriends}>
      {(friend) => <UserCard key={friend.id} user={friend} open="link" meta={friend.bio} actions={<MessageLink userId={friend.id} />} />}
    </FriendsList>
  );
}
