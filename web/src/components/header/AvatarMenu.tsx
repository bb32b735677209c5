import type { CurrentUser } from '@hoptrack/proto';
import { useEffect, useId, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth';
import { Avatar } from '../Avatar';
import { KeyIcon, LogoutIcon, ShieldIcon, UserIcon } from '../icons';
import { useDropdown, useMenuKeys } from '../useDropdown';

/** The avatar button and its menu: My Profile, Privacy, Account, Logout. Arrow keys and typed letters move between items. */
export function AvatarMenu({ user }: { user: CurrentUser }) {
  const { logOut } = useAuth();
  const navigate = useNavigate();
  const { open, close, containerRef, triggerProps } = useDropdown();
  const menuRef = useRef<HTMLDivElement>(null);
  const onMenuKeyDown = useMenuKeys();
  const menuId = useId();

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const logout = async () => {
    close();
    await logOut();
    void navigate('/');
  };

  return (
    <div className="avatar-menu" ref={containerRef}>
      <button
        {...triggerProps}
        className="avatar-button"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
      >
        <Avatar user={user} />
      </button>
      {open && (
        <div id={menuId} ref={menuRef} className="dropdown dropdown--end" role="menu" aria-label="Account" onKeyDown={onMenuKeyDown}>
          <div className="dropdown__header" role="presentation">
            <strong>{user.displayName}</strong>
            <span>@{user.username}</span>
          </div>
          <Link to="/profile" role="menuitem" className="dropdown__item" onClick={close}>
            <UserIcon />
            <span>My Profile</span>
          </Link>
          <Link to="/privacy" role="menuitem" className="dropdown__item" onClick={close}>
            <ShieldIcon />
            <span>Privacy</span>
          </Link>
          <Link to="/account" role="menuitem" className="dropdown__item" onClick={close}>
            <KeyIcon />
            <span>Account</span>
          </Link>
          <button type="button" role="menuitem" className="dropdown__item" onClick={() => void logout()}>
            <LogoutIcon />
            <span>Logout</span>
          </button>
        </div>
      )}
    </div>
  );
}
