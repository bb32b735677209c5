import { Link, matchPath, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { badgeText } from '../../lib/format';
import type { NavTarget } from '../../app/navigation';
import { useNavBadges } from '../../lib/useNavBadges';

interface NavLinkListProps {
  targets: readonly NavTarget[];
  className: string;
  onNavigate?: () => void;
}


/**
 * A list of route links; the current one (its path or below it, the feed's
 * exactly, or a path of its `alsoCurrentOn`) gets aria-current="page" and the
 * --active style; a link with something new (unread messages) carries a count.
 */
export function NavLinkList({ targets, className, onNavigate }: NavLinkListProps) {
  const badges = useNavBadges();
  const { pathname } = useLocation();
  const { user } = useAuth();
  return (
    <ul className={className}>
      {targets.map(({ to, label, Icon, alsoCurrentOn }) => {
        const count = badges[to] ?? 0;
        const current = matchPath({ path: to, end: to === '/' }, pathname) !== null || (alsoCurrentOn?.(pathname, user?.username) ?? false);
        return (
          <li key={to}>
            <Link to={to} onClick={onNavigate} aria-current={current ? 'page' : undefined} className={`nav-link${current ? ' nav-link--active' : ''}`}>
              <Icon />
              <span>{label}</span>
              {count > 0 && (
                <span className="nav-link__badge" data-testid="nav-badge">
                  {badgeText(count)}
                  <span className="visually-hidden"> unread</span>
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
