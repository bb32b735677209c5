import { NavLink } from 'react-router';
import { badgeText } from '../../lib/format';
import type { NavTarget } from '../../app/navigation';
import { useNavBadges } from '../../lib/useNavBadges';

interface NavLinkListProps {
  targets: readonly NavTarget[];
  className: string;
  onNavigate?: () => void;
}


/**
 * A list of route links; the current one gets aria-current="page" and the
 * --active style; a link with something new (unread messages) carries a count.
 */
export function NavLinkList({ targets, className, onNavigate }: NavLinkListProps) {
  const badges = useNavBadges();
  return (
    <ul className={className}>
      {targets.map(({ to, label, Icon }) => {
        const count = badges[to] ?? 0;
        return (
          <li key={to}>
            <NavLink
              to={to}
              end={to === '/'}
              onClick={onNavigate}
              className={({ isActive }) => `nav-link${isActive ? ' nav-link--active' : ''}`}
            >
              <Icon />
              <span>{label}</span>
              {count > 0 && (
                <span className="nav-link__badge" data-testid="nav-badge">
                  {badgeText(count)}
                  <span className="visually-hidden"> unread</span>
                </span>
              )}
            </NavLink>
          </li>
        );
      })}
    </ul>
  );
}
