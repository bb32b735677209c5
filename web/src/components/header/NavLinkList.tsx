import { NavLink } from 'react-router';
import type { NavTarget } from '../../app/navigation';
import { useNavBadges } from '../../lib/useNavBadges';

interface NavLinkListProps {
  targets: readonly NavTarget[];
  className: string;
  onNavigate?: () => void;
}

/** Shown as is up to this count; above it, '99+'. */
const BADGE_MAX = 99;

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
                  {count > BADGE_MAX ? `${BADGE_MAX}+` : count}
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
