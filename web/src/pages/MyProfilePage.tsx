import { useQuery } from '@tanstack/react-query';
import type { CurrentUser, MyStats } from '@hoptrack/proto';
import { useState } from 'react';
import { Avatar } from '../components/Avatar';
import { EmptyState } from '../components/EmptyState';
import { ProfileChallenges } from '../components/challenges/ProfileChallenges';
import { CameraIcon, UserIcon } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { ChangePictureDialog } from '../components/profile/ChangePictureDialog';
import { EditProfileDialog } from '../components/profile/EditProfileDialog';
import { ProfileHeaderCard } from '../components/profile/ProfileHeader';
import { followLinks, StatTileList, type Tile } from '../components/profile/StatTiles';
import { MySessionList } from '../components/sessions/MySessionList';
import { useAuth } from '../lib/auth';
import { compactHours, countLabel } from '../lib/format';
import { myStatsQuery } from '../lib/socialApi';

function tilesOf(userId: string, stats: MyStats): Tile[] {
  const links = followLinks(userId);
  return [
    { label: 'This Week', value: countLabel(stats.weeklyTotal, 'beer') },
    { label: 'Total Hours', value: `${compactHours(stats.totalHours)}h` },
    { label: 'Followers', value: String(stats.followersCount), to: links.followers },
    { label: 'Following', value: String(stats.followingCount), to: links.following },
  ];
}

/**
 * `/profile` and `/my-profile` (spec section 2): the signed-in user's header
 * with the change-picture dialog, This Week / Total Hours / Followers /
 * Following from GET /api/me/stats, the completed challenges' badges (no row
 * when there are none), and 'My Activities' from GET /api/me/sessions. A
 * skeleton shows until the stats answer; if they fail, 'User not found' with a retry.
 */
export function MyProfilePage() {
  const { user } = useAuth();
  if (!user) return null; // <RequireAuth> shows the sign-in panel instead
  return (
    <div className="page page--medium">
      <PageHeader title="My Profile" />
      <OwnProfile user={user} />
    </div>
  );
}

function OwnProfile({ user }: { user: CurrentUser }) {
  const stats = useQuery(myStatsQuery());
  if (stats.isPending) return <ProfileSkeleton />;
  if (stats.isError) {
    return (
      <EmptyState title="User not found" text="Unable to load profile information." Icon={UserIcon}>
        <button type="button" className="button button--secondary" onClick={() => void stats.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  return (
    <>
      <OwnProfileHeader user={user} />
      <section className="stat-section" aria-label="Stats">
        <StatTileList tiles={tilesOf(user.id, stats.data)} />
      </section>
      <ProfileChallenges userId={user.id} />
      <MySessionList />
    </>
  );
}

function OwnProfileHeader({ user }: { user: CurrentUser }) {
  const [changing, setChanging] = useState(false);
  const [editing, setEditing] = useState(false);
  return (
    <>
      <ProfileHeaderCard
        user={user}
        bio={user.bio}
        nameLevel={2}
        avatar={
          <div className="profile-avatar">
            <Avatar user={user} size={96} />
            <button type="button" className="button button--secondary button--small" onClick={() => setChanging(true)}>
              <CameraIcon width={16} height={16} />
              <span>Change picture</span>
            </button>
          </div>
        }
        actions={
          <button type="button" className="button button--secondary button--small" onClick={() => setEditing(true)}>
            Edit Profile
          </button>
        }
      />
      {changing && <ChangePictureDialog user={user} onClose={() => setChanging(false)} />}
      {editing && <EditProfileDialog user={user} onClose={() => setEditing(false)} />}
    </>
  );
}

const TILE_COUNT = 4;

function ProfileSkeleton() {
  return (
    <div className="page" role="status" aria-label="Loading profile">
      <div className="card profile-header" aria-hidden="true">
        <span className="profile-avatar">
          <span className="skeleton skeleton--avatar skeleton--avatar-large" />
          <span className="skeleton skeleton--button" />
        </span>
        <span className="profile-header__text">
          <span className="skeleton skeleton--line skeleton--title" />
          <span className="skeleton skeleton--line skeleton--short" />
          <span className="skeleton skeleton--line" />
        </span>
      </div>
      <ul className="stat-tiles" aria-hidden="true">
        {Array.from({ length: TILE_COUNT }, (_, index) => (
          <li key={index} className="stat-tile">
            <span className="skeleton skeleton--line skeleton--value" />
            <span className="skeleton skeleton--line skeleton--short" />
          </li>
        ))}
      </ul>
    </div>
  );
}
