import { Link } from 'react-router';
import { FindFriendsPanel } from '../components/friends/FindFriendsPanel';
import { FriendRequestsPanel, RequestsTabLabel } from '../components/friends/FriendRequestsPanel';
import { MyFriendsPanel } from '../components/friends/MyFriendsPanel';
import { PageHeader } from '../components/PageHeader';
import { Tabs, useTabParam, type TabItem } from '../components/Tabs';

type FriendsTab = 'find' | 'requests' | 'friends';

const TABS: readonly TabItem<FriendsTab>[] = [
  { id: 'find', label: 'Find Friends' },
  { id: 'requests', label: <RequestsTabLabel /> },
  { id: 'friends', label: 'My Friends' },
];
const TAB_IDS = TABS.map((tab) => tab.id);

/** `/friends`: find people, answer friend requests, see your friends. The tab is kept in `?tab=`. */
export function FriendsPage() {
  const [tab, setTab] = useTabParam(TAB_IDS, 'find');
  return (
    <div className="page page--medium">
      <PageHeader
        title="Friends"
        subtitle="Find your drinking buddies and keep up with your crew."
        actions={
          <Link to="/friends-enhanced" className="button button--secondary button--small">
            Manage friends
          </Link>
        }
      />
      <Tabs label="Friends" items={TABS} value={tab} onChange={setTab}>
        {tab === 'find' && <FindFriendsPanel />}
        {tab === 'requests' && <FriendRequestsPanel />}
        {tab === 'friends' && <MyFriendsPanel onFindFriends={() => setTab('find')} />}
      </Tabs>
    </div>
  );
}
