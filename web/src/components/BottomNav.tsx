import { BOTTOM_TABS } from '../app/navigation';
import { NavLinkList } from './header/NavLinkList';

/** Narrow screens, signed in: five equal tabs (spec section 2) fixed to the bottom (4rem high). Hidden by CSS from 768px up. */
export function BottomNav() {
  return (
    <nav className="bottom-nav" aria-label="Bottom navigation">
      <NavLinkList targets={BOTTOM_TABS} className="bottom-nav__list" />
    </nav>
  );
}
