import { useQuery } from '@tanstack/react-query';
import type { OtherUser } from '@hoptrack/proto';
import { useParams } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { LockIcon, UserIcon } from '../components/icons';
import { LoadingState } from '../components/LoadingState';
import { ProfileChallenges } from '../components/challenges/ProfileChallenges';
import { BackToFriends } from '../components/profile/BackToFriends';
import { ProfileHeader } from '../components/profile/ProfileHeader';
import { StatTiles } from '../components/profile/StatTiles';
import { UserSessionList } from '../components/sessions/UserSessionList';
import { Tabs, useTabParam, type TabItem } from '../components/Tabs';
import { useAuth } from '../lib/auth';
import { userByNameQuery, userQuery } from '../lib/socialApi';
import { useErrorToast } from '../lib/useErrorToast';

type ProfileTab = 'sessions' | 'activity';

const TABS: readonly TabItem<ProfileTab>[] = [
  { id: 'sessions', label: 'Beer Sessions' },
  { id: 'activity', label: 'Recent Activity' },
];
const TAB_IDS = TABS.map((tab) => tab.id);

/**
 * `/users/:userId` and `/profile/:username`: another drinker's (or your own)
 * public profile. Any failure to load it (404, also when a block exists)
 * shows 'User Not Found' (and an 'Error' / 'User not found' toast). A private profile the viewer may not see gets its
 * header and a lock panel, and its stats and completed challenges are not
 * requested (they would answer 403).
 */
export function UserProfilePage() {
  const { userId, username } = useParams();
  const profile = useQuery(username !== undefined ? userByNameQuery(username) : userQuery(userId ?? ''));

  useErrorToast(profile.error, () => ({ title: 'Error', description: 'User not found' }));

  if (profile.isPending) return <LoadingState label="Loading profile..." />;
  if (profile.isError) return <UserNotFound />;
  return <Profile user={profile.data} />;
}

function Profile({ user }: { user: OtherUser }) {
  const { user: me } = useAuth();
  const [tab, setTab] = useTabParam(TAB_IDS, 'sessions');
  return (
    <div className="page page--medium">
      <BackToFriends />
      <ProfileHeader user={user} isSelf={me?.id === user.id} />
      {user.canViewDetails ? (
        <>
          <StatTiles userId={user.id} />
          <ProfileChallenges userId={user.id} />
          <Tabs label="Profile sections" items={TABS} value={tab} onChange={setTab}>
            {tab === 'sessions' ? (
              <UserSessionList userId={user.id} displayName={user.displayName} />
            ) : (
              <EmptyState title="Activity feed coming soon!" text="Likes, comments and new friends will show up here." />
            )}
          </Tabs>
        </>
      ) : (
        <EmptyState title="This profile is private" text="Send a friend request to see their sessions and stats." Icon={LockIcon} />
      )}
    </div>
  );
}

function UserNotFound() {
  return (
    <div className="page page--medium">
      <title>User Not Found · Hoptrack</title>
      <BackToFriends />
      <EmptyState
        headingLevel={1}
        title="User Not Found"
        text="This user doesn't exist, or their profile isn't available to you."
        Icon={UserIcon}
      />
    </div>
  );
}
