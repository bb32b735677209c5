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

/** Spec section 9: letters typed in an open menu make one search until this long after the last of them. */
export const MENU_TYPEAHEAD_RESET_MS = 1000;

const itemText = (item: HTMLElement) => (item.textContent ?? '').trim().toLowerCase();

/** The arrow, Home and End moves: the item to focus, if the key is one of them. */
function steppedItem(key: string, items: HTMLElement[], current: number): HTMLElement | undefined {
  const step = { ArrowDown: 1, ArrowUp: -1 }[key];
  if (step !== undefined) return items[(current + step + items.length) % items.length];
  if (key === 'Home') return items[0];
  if (key === 'End') return items[items.length - 1];
  return undefined;
}

/**
 * The type-ahead match: the first item from the focused one on (wrapping)
 * whose text starts with `search`. One letter looks past the focused item, so
 * pressing it again steps through the items with that letter; so does the
 * same letter repeated ('pp').
 */
function typedItem(search: string, items: HTMLElement[], current: number): HTMLElement | undefined {
  const repeated = [...search].every((char) => char === search[0]);
  const text = repeated ? search.charAt(0) : search;
  const from = Math.max(current, 0);
  const wrapped = [...items.slice(from), ...items.slice(0, from)];
  const candidates = text.length === 1 && current >= 0 ? wrapped.slice(1) : wrapped;
  return candidates.find((item) => itemText(item).startsWith(text));
}

/**
 * onKeyDown of a role="menu": ArrowDown/ArrowUp move between its items
 * (wrapping), Home and End jump, and typed letters move to the next item
 * starting with them (type-ahead); the typed text is forgotten
 * MENU_TYPEAHEAD_RESET_MS after the last key.
 */
export function useMenuKeys(): (event: ReactKeyboardEvent<HTMLElement>) => void {
  const search = useRef('');
  const resetTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  return useCallback((event: ReactKeyboardEvent<HTMLElement>) => {
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    if (!items.length) return;
    const current = items.indexOf(document.activeElement as HTMLElement);
    let next = steppedItem(event.key, items, current);
    // A printable key without a modifier; a space only inside a search (alone, it presses the item).
    const typed = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && (event.key !== ' ' || search.current !== '');
    if (!next && typed) {
      search.current += event.key.toLowerCase();
      window.clearTimeout(resetTimer.current);
      resetTimer.current = window.setTimeout(() => {
        search.current = '';
      }, MENU_TYPEAHEAD_RESET_MS);
      next = typedItem(search.current, items, current);
      if (event.key === ' ') event.preventDefault();
    }
    if (!next) return;
    event.preventDefault();
    next.focus();
  }, []);
}
