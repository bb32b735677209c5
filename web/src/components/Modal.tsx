import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}

/**
 * An accessible modal dialog: role="dialog" with aria-modal, titled by its
 * heading; Escape, the close button and a click on the backdrop close it;
 * Tab stays inside; focus returns where it was on close.
 */
export function Modal({ open, title, description, onClose, children }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // Taken while rendering the opening: a child's autoFocus moves focus during the commit, before any effect runs.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  if (!open) returnFocusTo.current = null;
  else if (!returnFocusTo.current && document.activeElement instanceof HTMLElement) returnFocusTo.current = document.activeElement;

  useEffect(() => {
    if (!open) return;
    const previouslyFocused = returnFocusTo.current;
    const dialog = dialogRef.current;
    if (dialog && !dialog.contains(document.activeElement)) {
      const first = dialog.querySelector<HTMLElement>('input, select, textarea') ?? dialog;
      first.focus();
    }
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    // Focus can leave every dialog (a toast's close button, a click on the page behind):
    // Escape still closes the topmost dialog then, as it would with focus inside.
    const onStrayEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || !(event.target instanceof Element) || event.target.closest('[role="dialog"]')) return;
      const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
      if (dialogs[dialogs.length - 1] === dialogRef.current) closeRef.current();
    };
    document.addEventListener('keydown', onStrayEscape);
    return () => {
      document.removeEventListener('keydown', onStrayEscape);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // React bubbles keys out of a dialog rendered (through its portal) inside this one's content: that one handles them.
    if (!(event.target instanceof Node) || !event.currentTarget.contains(event.target)) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab') {
      trapTab(event, event.currentTarget);
    }
  };

  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="modal__description">
            {description}
          </p>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}

function trapTab(event: KeyboardEvent, container: HTMLElement) {
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    // Only what Tab itself stops at: shown, and not taken out of the order (a roving tabindex's inactive items).
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  // -1: focus is on the dialog box itself (a dialog without fields starts there); Shift+Tab from it would leave.
  const index = focusable.indexOf(document.activeElement as HTMLElement);
  if (event.shiftKey && index <= 0) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (index === -1 || index === focusable.length - 1)) {
    event.preventDefault();
    first.focus();
  }
}
