import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from '../EmptyState';
import { UsersIcon } from '../icons';
import { RefreshFailed } from '../RefreshFailed';

/** Users shown while a list loads (spec section 2: 3 users). */
export const USER_SKELETON_COUNT = 3;

export function UserListSkeleton({ label = 'Loading users' }: { label?: string }) {
  return (
    <div className="user-list" role="status" aria-label={label}>
      {Array.from({ length: USER_SKELETON_COUNT }, (_, index) => (
        <div key={index} className="user-card user-card--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--avatar" />
          <span className="user-card__text">
            <span className="skeleton skeleton--line" />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </div>
      ))}
    </div>
  );
}

/** A list that could not load: what failed, and a way to try again. */
export function ListError({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <section className="card notice" role="alert">
      <p>{text}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </section>
  );
}

interface UserListProps<T> {
  /** Names the list (e.g. 'Friend requests'). */
  label: string;
  items: readonly T[];
  /** Renders one `<UserCard>`; the index is the item's place in the list. */
  children: (item: T, index: number) => ReactNode;
}

export function UserList<T>({ label, items, children }: UserListProps<T>) {
  return (
    <ul className="user-list" aria-label={label}>
      {items.map((item, index) => children(item, index))}
    </ul>
  );
}

interface QueryUserListProps<T> extends Omit<UserListProps<T>, 'items'> {
  query: UseQueryResult<T[]>;
  /** The empty state: a title, a line of text, optionally a call to action. */
  empty: { title: string; text: ReactNode; action?: ReactNode };
  /** What the error panel says when the list fails to load. */
  errorText: string;
}

/** A user list fed by a query: skeleton while loading, error with retry, empty state, or the cards. */
export function QueryUserList<T>({ query, empty, errorText, ...list }: QueryUserListProps<T>) {
  if (query.isPending) return <UserListSkeleton />;
  if (query.isLoadingError) return <ListError text={errorText} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) {
    return (
      <EmptyState title={empty.title} text={empty.text} Icon={UsersIcon}>
        {empty.action}
      </EmptyState>
    );
  }
  return (
    <>
      {query.isRefetchError && <RefreshFailed onRetry={() => void query.refetch()} />}
      <UserList {...list} items={query.data} />
    </>
  );
}
