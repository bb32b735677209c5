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
}

/**
 * A file input behind a styled, focusable button-like label: the input stays
 * in the accessibility tree (and in tests' `getByLabel`), the label shows focus
 * and the disabled state.
 */
export function FilePickerButton({ label, onPick, multiple = false, accept = 'image/*', disabled }: FilePickerButtonProps) {
  const inputId = useId();
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length > 0) onPick(files);
  };
  return (
    <span className="file-picker">
      <input id={inputId} className="visually-hidden" type="file" accept={accept} multiple={multiple} onChange={change} disabled={disabled} />
      <label htmlFor={inputId} className="button button--secondary">
        <CameraIcon width={18} height={18} />
        <span>{label}</span>
      </label>
    </span>
  );
}
