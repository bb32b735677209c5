import { useEffect, useId, useLayoutEffect, useRef, useState, type FocusEvent, type PointerEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTooltipGroup } from '../lib/tooltip';

/** Room kept between the trigger and its tooltip, and between the tooltip and the screen's edge. */
const GAP_PX = 6;

export interface TooltipTriggerProps {
  onPointerEnter: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave: () => void;
  onPointerDown: () => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: () => void;
  'aria-describedby': string | undefined;
}

/**
 * A tooltip on one trigger, timed by the app's TooltipProvider (lib/tooltip.tsx):
 * spread `triggerProps` on the trigger and render `tooltip` beside it. It
 * opens on hover or keyboard focus, not on touch; pressing the trigger,
 * leaving it, blurring it or Escape closes it.
 */
export function useTooltip(text: string): { triggerProps: TooltipTriggerProps; tooltip: ReactNode } {
  const id = useId();
  const { open, show, hide } = useTooltipGroup(id);
  // Set by the event that asks for the tooltip, so it is there by the render that shows it.
  const anchor = useRef<HTMLElement | null>(null);
  // A click focuses the trigger: that focus must not bring back the tooltip the press just closed.
  const pressed = useRef(false);

  useEffect(() => () => hide(id), [hide, id]);

  useEffect(() => {
    if (!open) return;
    const close = () => hide(id);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    // Placed once when it opens: a scroll would leave it beside nothing.
    document.addEventListener('keydown', onKeyDown);
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('scroll', close, true);
    };
  }, [open, hide, id]);

  const triggerProps: TooltipTriggerProps = {
    onPointerEnter: (event) => {
      if (event.pointerType === 'touch') return;
      anchor.current = event.currentTarget;
      show(id);
    },
    onPointerLeave: () => {
      pressed.current = false;
      hide(id);
    },
    onPointerDown: () => {
      pressed.current = true;
      hide(id);
    },
    onFocus: (event) => {
      if (pressed.current) return;
      anchor.current = event.currentTarget;
      show(id);
    },
    onBlur: () => hide(id),
    'aria-describedby': open ? id : undefined,
  };
  const tooltip = open && anchor.current ? <TooltipBubble id={id} text={text} anchor={anchor.current} /> : null;
  return { triggerProps, tooltip };
}

/** Below the trigger, centred, kept on screen; above it when there is no room below. */
function place(trigger: DOMRect, bubble: DOMRect): { top: number; left: number } {
  const below = trigger.bottom + GAP_PX;
  const top = below + bubble.height <= window.innerHeight - GAP_PX ? below : trigger.top - GAP_PX - bubble.height;
  const centred = trigger.left + trigger.width / 2 - bubble.width / 2;
  const left = Math.min(Math.max(GAP_PX, centred), window.innerWidth - GAP_PX - bubble.width);
  return { top, left };
}

function TooltipBubble({ id, text, anchor }: { id: string; text: string; anchor: HTMLElement }) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  // Measured before the first paint, so it never shows in the wrong place.
  useLayoutEffect(() => {
    if (ref.current) setPosition(place(anchor.getBoundingClientRect(), ref.current.getBoundingClientRect()));
  }, [anchor, text]);

  return createPortal(
    <div id={id} ref={ref} role="tooltip" className="tooltip" style={position ?? { visibility: 'hidden' }}>
      {text}
    </div>,
    document.body,
  );
}
