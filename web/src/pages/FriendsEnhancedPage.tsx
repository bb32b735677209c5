import { useQuery } from '@tanstack/react-query';
import { MAX_PINNED_FRIENDS } from '@hoptrack/proto/constants';
import { BlockedUsersPanel } from '../components/friends/BlockedUsersPanel';
import { FindFriendsPanel } from '../components/friends/FindFriendsPanel';
import { FriendRequestsPanel, RequestsTabLabel } from '../components/friends/FriendRequestsPanel';
import { ManageFriendsPanel } from '../components/friends/ManageFriendsPanel';
import { PinnedFriendsPanel } from '../components/friends/PinnedFriendsPanel';
import { PageHeader } from '../components/PageHeader';
import { Tabs, useTabParam, type TabItem } from '../components/Tabs';
import { pinnedQuery } from '../lib/socialApi';

type EnhancedTab = 'friends' | 'pinned' | 'requests' | 'blocked' | 'find';

const TAB_IDS: readonly EnhancedTab[] = ['friends', 'pinned', 'requests', 'blocked', 'find'];

/**
 * `/friends-enhanced`: manage friends (pin, mute, block, unfriend), the
 * pinned list with its live 'Pinned (n/5)' count, requests, blocked users
 * and search. The pinned list is loaded up front for the count and the limit check.
 */
export function FriendsEnhancedPage() {
  const [tab, setTab] = useTabParam(TAB_IDS, 'friends');
  const pinned = useQuery(pinnedQuery());
  const pinnedCount = pinned.data?.length;
  const tabs: readonly TabItem<EnhancedTab>[] = [
    { id: 'friends', label: 'Friends' },
    { id: 'pinned', label: `Pinned (${pinnedCount ?? 0}/${MAX_PINNED_FRIENDS})` },
    { id: 'requests', label: <RequestsTabLabel /> },
    { id: 'blocked', label: 'Blocked' },
    { id: 'find', label: 'Find Friends' },
  ];
  const findFriends = () => setTab('find');
  return (
    <div className="page page--medium">
      <PageHeader title="Friends" subtitle="Pin your favourites, mute the noisy ones and manage who you block." />
      <Tabs label="Manage friends" items={tabs} value={tab} onChange={setTab}>
        {tab === 'friends' && <ManageFriendsPanel pinnedCount={pinnedCount} onFindFriends={findFriends} />}
        {tab === 'pinned' && <PinnedFriendsPanel pinned={pinned} />}
        {tab === 'requests' && <FriendRequestsPanel />}
        {tab === 'blocked' && <BlockedUsersPanel />}
        {tab === 'find' && <FindFriendsPanel />}
      </Tabs>
    </div>
  );
}
