import { useCallback, useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useLocation } from 'react-router';

/**
 * Open/close state of a header dropdown: closes on a click outside, on
 * Escape (focus back to the trigger) and whenever the route changes.
 */
export function useDropdown() {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    setOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !containerRef.current?.contains(event.target)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      triggerRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const toggle = useCallback(() => setOpen((value) => !value), []);
  const close = useCallback(() => setOpen(false), []);
  /** Closes and puts focus back on the trigger: for items that open a dialog, whose focus must come back somewhere that stays. */
  const closeToTrigger = useCallback(() => {
    setOpen(false);
    triggerRef.current?.focus();
  }, []);
  /** Spread on the button that opens the dropdown. */
  const triggerProps = { ref: triggerRef, type: 'button', 'aria-expanded': open, onClick: toggle } as const;
  return { open, close, closeToTrigger, containerRef, triggerProps };
}

/** onKeyDown of a role="menu": ArrowDown/ArrowUp move between its items (wrapping), Home and End jump. */
export function moveMenuFocus(event: ReactKeyboardEvent<HTMLElement>) {
  const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
  if (!items.length) return;
  let next: HTMLElement | undefined;
  if (step !== undefined) {
    const index = items.indexOf(document.activeElement as HTMLElement);
    next = items[(index + step + items.length) % items.length];
  } else if (event.key === 'Home') {
    next = items[0];
  } else if (event.key === 'End') {
    next = items[items.length - 1];
  }
  if (!next) return;
  event.preventDefault();
  next.focus();
}
