import type { FormEvent, ReactNode } from 'react';
import { Modal } from './Modal';
import { FormActions } from './FormActions';

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
  /** The confirm button is off until the inputs say yes (a typed confirmation). */
  confirmDisabled?: boolean;
}

/** "Are you sure?" for destructive actions: Cancel, and a danger button that confirms. */
export function ConfirmDialog({ title, description, confirmLabel, pending, onConfirm, onClose, children, confirmDisabled }: ConfirmDialogProps) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onConfirm();
  };
  return (
    <Modal open title={title} description={description} onClose={onClose}>
      <form className="form" onSubmit={onSubmit}>
        {children}
        <FormActions onCancel={onClose} pending={pending} submitLabel={confirmLabel} tone="danger" submitDisabled={confirmDisabled} />
      </form>
    </Modal>
  );
}
