import type { ReactNode } from 'react';

interface SubmitButtonProps {
  /** The request is on its way: disabled, showing `pendingLabel`. */
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
}

/** A form's full-width primary submit button. */
export function SubmitButton({ pending, pendingLabel, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
