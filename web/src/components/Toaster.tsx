import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useToastStore, type ShownToast } from '../lib/toast';

/** Swiping a toast right by more than this many pixels dismisses it (spec section 9). */
const SWIPE_THRESHOLD_PX = 50;
const FOCUS_HOTKEY = 'F8';

/**
 * The notification region: a role="status" live region in a corner, F8
 * focuses it. Holds the one current toast.
 */
export function Toaster() {
  const { current, dismiss } = useToastStore();
  const viewportRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === FOCUS_HOTKEY) {
        event.preventDefault();
        viewportRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div
      ref={viewportRef}
      className="toast-viewport"
      role="status"
      aria-live="polite"
      aria-label={`Notifications (${FOCUS_HOTKEY})`}
      tabIndex={-1}
    >
      {current && <ToastCard key={current.id} toast={current} dismiss={dismiss} />}
    </div>
  );
}

function ToastCard({ toast, dismiss }: { toast: ShownToast; dismiss: (id: number) => void }) {
  const onDismiss = useCallback(() => dismiss(toast.id), [dismiss, toast.id]);
  const [paused, setPaused] = useState(false);
  const [offsetX, setOffsetX] = useState(0);
  const swipeStart = useRef<number | null>(null);

  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(onDismiss, toast.durationMs);
    return () => window.clearTimeout(timer);
  }, [paused, toast.durationMs, onDismiss]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('button')) return;
    swipeStart.current = event.clientX;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (swipeStart.current === null) return;
    setOffsetX(Math.max(0, event.clientX - swipeStart.current));
  };
  const onPointerUp = () => {
    if (swipeStart.current === null) return;
    swipeStart.current = null;
    if (offsetX > SWIPE_THRESHOLD_PX) onDismiss();
    else setOffsetX(0);
  };

  return (
    <div
      className={`toast toast--${toast.variant}`}
      style={offsetX ? { transform: `translateX(${offsetX}px)`, opacity: Math.max(0.2, 1 - offsetX / 200) } : undefined}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      <div className="toast__text">
        <div className="toast__title">{toast.title}</div>
        {toast.description && <div className="toast__description">{toast.description}</div>}
      </div>
      <button type="button" className="toast__close" aria-label="Close notification" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
