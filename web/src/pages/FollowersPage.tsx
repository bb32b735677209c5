import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FollowList } from '@hoptrack/proto';
import { PRIVATE_FOLLOWERS_MESSAGE, PRIVATE_FOLLOWING_MESSAGE, PRIVATE_PROFILE_MESSAGE } from '@hoptrack/proto/constants';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { ArrowLeftIcon, LockIcon } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { MessageLink } from '../components/social/MessageLink';
import { UserCard } from '../components/social/UserCard';
import { ListError, UserList, UserListSkeleton } from '../components/social/UserList';
import { Tabs, useTabParam, type TabItem } from '../components/Tabs';
import { errorStatus, serverMessage } from '../api';
import { useAuth } from '../lib/auth';
import { followListQuery, userQuery, type FollowDirection } from '../lib/socialApi';
import { useErrorToast } from '../lib/useErrorToast';

const DIRECTIONS: readonly FollowDirection[] = ['followers', 'following'];

/** The server's refusals of a private profile's lists (spec section 6). */
const RESTRICTED: readonly string[] = [PRIVATE_FOLLOWERS_MESSAGE, PRIVATE_FOLLOWING_MESSAGE, PRIVATE_PROFILE_MESSAGE];

function restriction(error: Error | null): string | null {
  if (!error || errorStatus(error) !== 403) return null;
  const message = serverMessage(error, '');
  return RESTRICTED.includes(message) ? message : null;
}

/**
 * `/users/:userId/followers`: tabs 'Followers (n)' and 'Following (n)'; only
 * the open tab's list is loaded, and either answer carries both counts. A
 * private profile's refusal becomes an 'Access Restricted' toast and panel.
 */
export function FollowersPage() {
  const { userId = '' } = useParams();
  const [direction, setDirection] = useTabParam(DIRECTIONS, 'followers');
  const owner = useQuery(userQuery(userId));
  const list = useQuery({ ...followListQuery(userId, direction), placeholderData: keepPreviousData });
  const restricted = restriction(list.error);
  useErrorToast(list.error, (error) => {
    const message = restriction(error);
    return message ? { title: 'Access Restricted', description: message } : null;
  });

  const counts = list.data;
  const tabs: readonly TabItem<FollowDirection>[] = [
    { id: 'followers', label: counts ? `Followers (${counts.followersCount})` : 'Followers' },
    { id: 'following', label: counts ? `Following (${counts.followingCount})` : 'Following' },
  ];

  return (
    <div className="page page--medium">
      <Link to={`/users/${userId}`} className="button button--ghost back-link">
        <ArrowLeftIcon width={18} height={18} />
        <span>Back to Profile</span>
      </Link>
      <PageHeader title="Followers" subtitle={owner.data ? `${owner.data.displayName} (@${owner.data.username})` : undefined} />
      {restricted ? (
        <EmptyState title="Access Restricted" text={restricted} Icon={LockIcon} />
      ) : (
        <Tabs label="Follow lists" items={tabs} value={direction} onChange={setDirection}>
          <FollowListPanel direction={direction} list={list.isPlaceholderData ? undefined : list.data} error={list.isError} onRetry={() => void list.refetch()} />
        </Tabs>
      )}
    </div>
  );
}

interface FollowListPanelProps {
  direction: FollowDirection;
  list: FollowList | undefined;
  error: boolean;
  onRetry: () => void;
}

function FollowListPanel({ direction, list, error, onRetry }: FollowListPanelProps) {
  const { user: me } = useAuth();
  if (error) return <ListError text={`Could not load ${direction}.`} onRetry={onRetry} />;
  if (!list) return <UserListSkeleton />;
  if (list.users.length === 0) {
    return (
      <EmptyState
        title={direction === 'followers' ? 'No followers yet' : 'Not following anyone yet'}
        text={direction === 'followers' ? 'Nobody follows this drinker yet.' : 'This drinker does not follow anyone yet.'}
      />
    );
  }
  return (
    <UserList label={direction === 'followers' ? 'Followers' : 'Following'} items={list.users}>
      {(entry) => (
        <UserCard
          key={entry.id}
          user={entry}
          open="link"
          meta={entry.bio}
          actions={entry.id !== me?.id && <MessageLink userId={entry.id} />}
        />
      )}
    </UserList>
  );
}
