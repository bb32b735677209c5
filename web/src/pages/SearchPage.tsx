import type { OtherUser } from '@hoptrack/proto';
import { SEARCH_QUERY_MIN } from '@hoptrack/proto/constants';
import { useState } from 'react';
import { PageHeader } from '../components/PageHeader';
import { ProfileModal } from '../components/social/ProfileModal';
import { SearchBox } from '../components/social/SearchBox';
import { UserCard } from '../components/social/UserCard';
import { UserSearchResults } from '../components/social/UserSearchResults';
import { useUserSearch } from '../lib/useUserSearch';

/**
 * `/search`: user search; a result opens its profile in a modal. The modal
 * follows the cached result, so a friend request made in it shows there too.
 */
export function SearchPage() {
  const [text, setText] = useState('');
  const search = useUserSearch(text, SEARCH_QUERY_MIN);
  const [opened, setOpened] = useState<OtherUser | null>(null);
  const shown = opened && (search.results?.find((user) => user.id === opened.id) ?? opened);

  return (
    <div className="page page--medium">
      <PageHeader title="Search" subtitle="Find other drinkers by name or username." />
      <SearchBox value={text} onChange={setText} minLength={SEARCH_QUERY_MIN} active={search.active} />
      <UserSearchResults search={search} className="search-results">
        {(user) => (
          <UserCard key={user.id} user={user} open={() => setOpened(user)} meta={user.bio} />
        )}
      </UserSearchResults>
      {shown && <ProfileModal user={shown} onClose={() => setOpened(null)} />}
    </div>
  );
}
