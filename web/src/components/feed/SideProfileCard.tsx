import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@hoptrack/proto';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { compactHours, countLabel } from '../../lib/format';
import { myStatsQuery } from '../../lib/socialApi';
import { Avatar } from '../Avatar';

/**
 * The feed's side card (spec section 2): avatar (initials without a
 * picture), name, bio; This Week, Total Hours and Friends from
 * /api/me/stats; Quick Actions. A skeleton until the user and stats are known.
 */
export function SideProfileCard({ onLogSession }: { onLogSession: () => void }) {
  const { user } = useAuth();
  const stats = useQuery(myStatsQuery());
  if (!user || stats.isPending) return <SideProfileSkeleton />;
  return (
    <section className="card side-profile" aria-label="Your profile">
      <ProfileSummary user={user} />
      <ul className="side-profile__stats">
        <SideStat label="This Week" value={stats.data ? countLabel(stats.data.weeklyTotal, 'beer') : '–'} />
        <SideStat label="Total Hours" value={stats.data ? `${compactHours(stats.data.totalHours)}h` : '–'} />
        <SideStat label="Friends" value={stats.data ? String(stats.data.friendsCount) : '–'} />
      </ul>
      <div className="side-profile__actions">
        <h2 className="side-profile__heading">Quick Actions</h2>
        <button type="button" className="button button--primary button--block" onClick={onLogSession}>
          Log Session
        </button>
        <Link to="/friends" className="button button--secondary button--block">
          Find Friends
        </Link>
      </div>
    </section>
  );
}

function ProfileSummary({ user }: { user: CurrentUser }) {
  return (
    <div className="side-profile__who">
      <Avatar user={user} size={72} />
      <p className="side-profile__name">{user.displayName}</p>
      {user.bio && <p className="side-profile__bio">{user.bio}</p>}
    </div>
  );
}

function SideStat({ label, value }: { label: string; value: string }) {
  return (
    <li className="side-profile__stat">
      <span className="side-profile__value">{value}</span>
      <span className="side-profile__label">{label}</span>
    </li>
  );
}

function SideProfileSkeleton() {
  return (
    <div className="card side-profile" role="status" aria-label="Loading your profile">
      <div className="side-profile__who" aria-hidden="true">
        <span className="skeleton skeleton--avatar side-profile__avatar-skeleton" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  );
}
