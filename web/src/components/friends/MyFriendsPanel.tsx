import { MessageLink } from '../social/MessageLink';
import { FriendsList } from './FriendsList';

/** 'My Friends': each card opens the friend's profile and offers a message. */
export function MyFriendsPanel({ onFindFriends }: { onFindFriends: () => void }) {
  return (
    <FriendsList label="My friends" onFindFriends={onFindFriends} meta={(friend) => friend.bio} actions={(friend) => <MessageLink userId={friend.id} />} />
  );
}
