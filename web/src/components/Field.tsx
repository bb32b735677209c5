import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  /** Inline validation message, announced and linked to the input. */
  error?: string;
  /** What the field expects or what happens to it, shown before anything is typed and linked to the input. */
  hint?: ReactNode;
}

/** A labelled text input with an optional hint and an optional inline error below it. */
export function Field({ label, error, hint, className, ...input }: FieldProps) {
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
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
