import { useId } from 'react';
import { HEADER_LINKS } from '../../app/navigation';
import { MenuIcon } from '../icons';
import { useDropdown } from '../useDropdown';
import { NavLinkList } from './NavLinkList';

/** Narrow screens: the header links collapse into this dropdown. */
export function HamburgerMenu() {
  const { open, close, containerRef, triggerProps } = useDropdown();
  const panelId = useId();
  return (
    <div className="hamburger" ref={containerRef}>
      <button {...triggerProps} className="icon-button" aria-label="Open menu" aria-controls={panelId}>
        <MenuIcon />
      </button>
      {open && (
        <nav id={panelId} className="dropdown dropdown--start" aria-label="Menu">
          <NavLinkList targets={HEADER_LINKS} className="dropdown__list" onNavigate={close} />
        </nav>
      )}
    </div>
  );
}
