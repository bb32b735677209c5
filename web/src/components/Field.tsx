import { useId, type ComponentProps } from 'react';

interface FieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  /** Inline validation message, announced and linked to the input. */
  error?: string;
}

/** A labelled text input with an optional inline error below it. */
export function Field({ label, error, className, ...input }: FieldProps) {
  const inputId = useId();
  const errorId = useId();
  return (
    <div className={`field ${className ?? ''}`.trim()}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
