import { useState } from 'react';
import { useUserSearch } from '../../lib/useUserSearch';
import { FriendshipButton } from '../social/FriendshipButton';
import { SearchBox } from '../social/SearchBox';
import { UserCard } from '../social/UserCard';
import { UserSearchResults } from '../social/UserSearchResults';

/** The friends screens search only once the trimmed text is over 2 characters (spec section 5). */
const FIND_FRIENDS_MIN_LENGTH = 3;

/** 'Find Friends': search by name or username; each result carries its friendship button. */
export function FindFriendsPanel() {
  const [text, setText] = useState('');
  const search = useUserSearch(text, FIND_FRIENDS_MIN_LENGTH);
  return (
    <div className="panel-stack">
      <SearchBox value={text} onChange={setText} minLength={FIND_FRIENDS_MIN_LENGTH} active={search.active} />
      <UserSearchResults search={search}>
        {(user) => <UserCard key={user.id} user={user} open="link" actions={<FriendshipButton user={user} />} />}
      </UserSearchResults>
    </div>
  );
}
