import type { FormEvent, ReactNode } from 'react';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** The confirmed action is on its way: both buttons wait. */
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** Extra inputs between the description and the buttons. */
  children?: ReactNode;
}

/** "Are you sure?" for destructive actions: Cancel, and a danger button that confirms. */
export function ConfirmDialog({ title, description, confirmLabel, pending, onConfirm, onClose, children }: ConfirmDialogProps) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onConfirm();
  };
  return (
    <Modal open title={title} description={description} onClose={onClose}>
      <form className="form" onSubmit={onSubmit}>
        {children}
        <div className="button-row button-row--end">
          <button type="button" className="button button--ghost" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className="button button--danger" disabled={pending}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
