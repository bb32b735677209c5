import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';

/** Spec section 9: a tooltip opens this long after its trigger is hovered or focused... */
export const TOOLTIP_DELAY_MS = 700;
/** ...unless another tooltip closed less than this long ago: then it opens at once (moving along a row of icons). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

interface TooltipGroup {
  /** The one tooltip shown, by its trigger's id. */
  openId(): string | null;
  /** Told whenever the shown tooltip changes (for useSyncExternalStore). */
  subscribe(listener: () => void): () => void;
  /** Hovered or focused: opens after the delay, or at once within the skip delay. */
  show(id: string): void;
  /** Left, blurred, pressed, Escape or unmounted: cancels a pending open, closes an open one. */
  hide(id: string): void;
}

const TooltipContext = createContext<TooltipGroup | null>(null);

/**
 * One clock for every tooltip of the app: the skip delay is about moving from
 * one trigger to another, so the timers cannot live in each trigger. One
 * tooltip is shown at a time.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  // Refs, not state: show/hide run from events in the same tick and must see each other's effect at
  // once, and a change re-renders only the two triggers it concerns (useTooltipGroup), not every trigger.
  const shown = useRef<string | null>(null);
  const listeners = useRef(new Set<() => void>());
  const pending = useRef<{ id: string; timer: number } | null>(null);
  const skipping = useRef(false);
  const skipTimer = useRef<number | undefined>(undefined);

  const cancelPending = useCallback(() => {
    if (pending.current) window.clearTimeout(pending.current.timer);
    pending.current = null;
  }, []);

  const setShown = useCallback((id: string | null) => {
    shown.current = id;
    for (const listener of listeners.current) listener();
  }, []);

  const show = useCallback(
    (id: string) => {
      if (shown.current === id || pending.current?.id === id) return;
      cancelPending();
      // Straight from another open tooltip's trigger, or soon after one closed: no second wait.
      if (shown.current !== null || skipping.current) {
        setShown(id);
        return;
      }
      const timer = window.setTimeout(() => {
        pending.current = null;
        setShown(id);
      }, TOOLTIP_DELAY_MS);
      pending.current = { id, timer };
    },
    [cancelPending, setShown],
  );

  const hide = useCallback(
    (id: string) => {
      if (pending.current?.id === id) cancelPending();
      if (shown.current !== id) return;
      setShown(null);
      skipping.current = true;
      window.clearTimeout(skipTimer.current);
      skipTimer.current = window.setTimeout(() => {
        skipping.current = false;
      }, TOOLTIP_SKIP_DELAY_MS);
    },
    [cancelPending, setShown],
  );

  useEffect(
    () => () => {
      cancelPending();
      window.clearTimeout(skipTimer.current);
    },
    [cancelPending],
  );

  const group = useMemo<TooltipGroup>(
    () => ({
      openId: () => shown.current,
      subscribe: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
      show,
      hide,
    }),
    [show, hide],
  );
  return <TooltipContext.Provider value={group}>{children}</TooltipContext.Provider>;
}

/** The group's show/hide, and whether the tooltip of trigger `id` is the one shown. */
export function useTooltipGroup(id: string): { open: boolean; show(id: string): void; hide(id: string): void } {
  const group = useContext(TooltipContext);
  if (!group) throw new Error('useTooltipGroup must be used inside <TooltipProvider>');
  const open = useSyncExternalStore(group.subscribe, () => group.openId() === id);
  return { open, show: group.show, hide: group.hide };
}
