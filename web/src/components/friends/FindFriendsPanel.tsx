import { SEARCH_QUERY_MIN } from '@hoptrack/proto/constants';
import { useState } from 'react';
import { useUserSearch } from '../../lib/useUserSearch';
import { FriendshipButton } from '../social/FriendshipButton';
import { SearchBox } from '../social/SearchBox';
import { UserCard } from '../social/UserCard';
import { UserSearchResults } from '../social/UserSearchResults';

/** 'Find Friends': search by name or username from SEARCH_QUERY_MIN characters (as /search); each result carries its friendship button. */
export function FindFriendsPanel() {
  const [text, setText] = useState('');
  const search = useUserSearch(text, SEARCH_QUERY_MIN);
  return (
    <div className="panel-stack">
      <SearchBox value={text} onChange={setText} minLength={SEARCH_QUERY_MIN} active={search.active} />
      <UserSearchResults search={search}>
        {(user) => <UserCard key={user.id} user={user} open="link" actions={<FriendshipButton user={user} />} />}
      </UserSearchResults>
    </div>
  );
}
