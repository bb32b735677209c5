import { NavLink } from 'react-router';
import type { NavTarget } from '../../app/navigation';

interface NavLinkListProps {
  targets: readonly NavTarget[];
  className: string;
  onNavigate?: () => void;
}

/** A list of route links; the current one gets aria-current="page" and the --active style. */
export function NavLinkList({ targets, className, onNavigate }: NavLinkListProps) {
  return (
    <ul className={className}>
      {targets.map(({ to, label, Icon }) => (
        <li key={to}>
          <NavLink
            to={to}
            end={to === '/'}
            onClick={onNavigate}
            className={({ isActive }) => `nav-link${isActive ? ' nav-link--active' : ''}`}
          >
            <Icon />
            <span>{label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
