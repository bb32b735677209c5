interface FormActionsProps {
  /** The Cancel button's action (closes the dialog or the form). */
  onCancel: () => void;
  /** A call is on its way: both buttons wait, and the submit button says `pendingLabel`. */
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
  /** The submit button is off for another reason too (nothing chosen yet). */
  submitDisabled?: boolean;
  /** 'danger' for a destructive confirmation. */
  tone?: 'primary' | 'danger';
}

/** The foot of every form dialog: Cancel, then the submit button, right-aligned. */
export function FormActions({ onCancel, pending, submitLabel, pendingLabel, submitDisabled = false, tone = 'primary' }: FormActionsProps) {
  return (
    <div className="button-row button-row--end">
      <button type="button" className="button button--ghost" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
      <button type="submit" className={`button button--${tone}`} disabled={submitDisabled || pending}>
        {pending && pendingLabel ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}
