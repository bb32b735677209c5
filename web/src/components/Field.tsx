import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  /** Inline validation message, announced and linked to the input. */
  error?: string;
  /** What the field expects or what happens to it, shown before anything is typed and linked to the input. */
  hint?: ReactNode;
  /**
   * The most characters the value may have, shown as a counter ('12/100') that
   * turns red past it. Nothing typed or pasted is cut (no maxLength): the
   * form's check says what is too long.
   */
  limit?: number;
}

/** A labelled text input with an optional hint, character counter and inline error below it. */
export function Field({ label, error, hint, limit, className, ...input }: FieldProps) {
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const countId = useId();
  const length = typeof input.value === 'string' ? input.value.length : 0;
  const describedBy = [hint ? hintId : '', error ? errorId : '', limit !== undefined ? countId : ''].filter(Boolean).join(' ');
  return (
    <div className={`field ${className ?? ''}`.trim()}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {limit !== undefined && (
        <span id={countId} className={`field__count${length > limit ? ' field__count--over' : ''}`}>
          {length}/{limit}
        </span>
      )}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
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
