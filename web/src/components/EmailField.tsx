import { Field } from './Field';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/** The 'Email' input of the sign-in and password-reset forms. */
export function EmailField({ value, onChange, error, autoFocus }: EmailFieldProps) {
  return (
    <Field
      label="Email"
      type="email"
      autoComplete="email"
      autoFocus={autoFocus}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
