import { Link } from 'react-router';
import { HEADER_LINKS } from '../../app/navigation';
import { useAuth } from '../../lib/auth';
import { useAuthDialog } from '../auth-dialog/AuthDialogProvider';
import { BeerIcon } from '../icons';
import { AvatarMenu } from './AvatarMenu';
import { HamburgerMenu } from './HamburgerMenu';
import { NavLinkList } from './NavLinkList';
import { NotificationBell } from './NotificationBell';

/**
 * Signed out: brand plus Sign In / Get Started. Signed in: the link row
 * (wide) or the hamburger (narrow, below 768px), the notification bell and
 * the avatar menu.
 */
export function Header() {
  const { user, isLoading } = useAuth();
  const { openAuthDialog } = useAuthDialog();

  return (
    <header className="header">
      <div className="header__inner">
        {user && <HamburgerMenu />}
        <Link to="/" className="brand">
          <BeerIcon className="brand__icon" width={26} height={26} />
          <span>Hoptrack</span>
        </Link>
        {user && (
          <nav className="header__links" aria-label="Main">
            <NavLinkList targets={HEADER_LINKS} className="header__link-list" />
          </nav>
        )}
        <div className="header__actions">
          {user && <NotificationBell />}
          {user && <AvatarMenu user={user} />}
          {!user && !isLoading && (
            <>
              <button type="button" className="button button--ghost" onClick={() => openAuthDialog('login')}>
                Sign In
              </button>
              <button type="button" className="button button--primary" onClick={() => openAuthDialog('register')}>
                Get Started
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
