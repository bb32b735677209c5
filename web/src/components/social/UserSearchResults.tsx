import type { OtherUser } from '@hoptrack/proto';
import type { ReactNode } from 'react';
import type { UserSearch } from '../../lib/useUserSearch';
import { EmptyState } from '../EmptyState';
import { SearchIcon } from '../icons';
import { ListError, UserList, UserListSkeleton } from './UserList';

interface UserSearchResultsProps {
  search: UserSearch;
  /** Renders one result as a `<UserCard>`. */
  children: (user: OtherUser) => ReactNode;
  className?: string;
}

/** The results under a search box: nothing until the text is long enough, then skeleton, error, none, or the cards. */
export function UserSearchResults({ search, children, className }: UserSearchResultsProps) {
  if (!search.active) return null;
  if (search.isLoading) return <UserListSkeleton label="Searching" />;
  if (search.isError || !search.results) return <ListError text="Could not search for users." onRetry={search.retry} />;
  if (search.results.length === 0) {
    return <EmptyState title="No users found" text={`Nobody matches "${search.query}".`} Icon={SearchIcon} />;
  }
  return (
    <div className={className} aria-busy={search.isStale}>
      <UserList label="Search results" items={search.results}>
        {children}
      </UserList>
    </div>
  );
}
