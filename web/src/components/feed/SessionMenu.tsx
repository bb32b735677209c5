import { useEffect, useId, useRef } from 'react';
import { useDropdown, useMenuKeys } from '../useDropdown';

interface SessionMenuProps {
  onEdit: () => void;
  onDelete: () => void;
}

/** The owner's '⋯' menu on a session card: Edit and Delete. */
export function SessionMenu({ onEdit, onDelete }: SessionMenuProps) {
  const { open, closeToTrigger, containerRef, triggerProps } = useDropdown();
  const menuRef = useRef<HTMLDivElement>(null);
  const onMenuKeyDown = useMenuKeys();
  const menuId = useId();

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  // Focus goes back to '⋯' first, so the dialog the item opens returns it there (the item itself disappears).
  const run = (action: () => void) => () => {
    closeToTrigger();
    action();
  };

  return (
    <div className="session-menu" ref={containerRef}>
      <button
        {...triggerProps}
        className="session-menu__trigger"
        aria-label="Session options"
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <div id={menuId} ref={menuRef} className="dropdown dropdown--end session-menu__list" role="menu" aria-label="Session options" onKeyDown={onMenuKeyDown}>
          <button type="button" role="menuitem" className="dropdown__item" onClick={run(onEdit)}>
            Edit
          </button>
          <button type="button" role="menuitem" className="dropdown__item button--danger-text" onClick={run(onDelete)}>
            Delete
          </button>
        </div>
      )}
    </div>
  );
}
