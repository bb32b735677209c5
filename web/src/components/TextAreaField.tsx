import { useId, useState, type ClipboardEvent, type ComponentProps } from 'react';

interface TextAreaFieldProps extends Omit<ComponentProps<'textarea'>, 'id'> {
  label: string;
  /** Inline validation message, announced and linked to the textarea (as `<Field>` does). */
  error?: string;
  /**
   * With `maxLength`: say how many characters are left, below the field, and
   * refuse a paste that would not fit whole instead of letting the browser cut
   * it (issue 40, item 16: limits never cut text silently).
   */
  counter?: boolean;
}

/** A labelled multi-line input, styled like `<Field>` (descriptions, a bio). */
export function TextAreaField({ label, error, counter, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const errorId = useId();
  const countId = useId();
  const [refusedPaste, setRefusedPaste] = useState<number | null>(null);
  const max = counter ? textarea.maxLength : undefined;
  const left = max === undefined ? null : max - String(textarea.value ?? '').length;

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    textarea.onPaste?.(event);
    if (max === undefined || event.defaultPrevented) return;
    const field = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    const after = field.value.length - (field.selectionEnd - field.selectionStart) + pasted.length;
    if (after <= max) {
      setRefusedPaste(null);
      return;
    }
    event.preventDefault();
    setRefusedPaste(after - max);
  };

  const describedBy = [left === null ? null : countId, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input field__textarea"
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...textarea}
        onPaste={onPaste}
        onInput={(event) => {
          setRefusedPaste(null);
          textarea.onInput?.(event);
        }}
      />
      {left !== null && (
        <p id={countId} className={`field__hint${refusedPaste ? ' field__hint--refused' : ''}`} aria-live="polite">
          {refusedPaste
            ? `That paste is ${plural(refusedPaste)} too long, so nothing was added (${max} at most). ${plural(left)} left.`
            : `${plural(left)} left`}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const plural = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
