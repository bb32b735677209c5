import { useId, type ChangeEvent } from 'react';
import { CameraIcon } from './icons';

interface FilePickerButtonProps {
  /** The button's text, which also labels the file input ('Select Photos'). */
  label: string;
  /** Called with the chosen files; the input is cleared, so the same files can be picked again. */
  onPick: (files: File[]) => void;
  multiple?: boolean;
  accept?: string;
  disabled?: boolean;
  /** Why the last pick (or its upload) was refused: shown under the button, announced, and describing the input. */
  error?: string;
}

/**
 * A file input behind a styled, focusable button-like label: the input stays
 * in the accessibility tree (and in tests' `getByLabel`), the label shows focus
 * and the disabled state.
 */
export function FilePickerButton({ label, onPick, multiple = false, accept = 'image/*', disabled, error }: FilePickerButtonProps) {
  const inputId = useId();
  const errorId = useId();
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length > 0) onPick(files);
  };
  // A refused pick marks the input and points it at the reason.
  const refused = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  return (
    <span className="file-picker">
      <input id={inputId} className="visually-hidden" type="file" accept={accept} multiple={multiple} onChange={change} disabled={disabled} {...refused} />
      <label htmlFor={inputId} className="button button--secondary">
        <CameraIcon width={18} height={18} />
        <span>{label}</span>
      </label>
      {error && (
        <span id={errorId} className="field__error file-picker__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
