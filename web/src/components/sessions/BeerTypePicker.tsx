import { BEER_TYPE_MAX } from '@hoptrack/proto/constants';
import { useId, useState, type KeyboardEvent } from 'react';
import { addBeerType, toggleBeerType } from '../../lib/sessionDraft';

interface BeerTypePickerProps {
  /** The dialog's presets: CREATE_BEER_TYPES or EDIT_BEER_TYPES. */
  presets: readonly string[];
  value: string[];
  onChange: (types: string[]) => void;
  disabled?: boolean;
}

/**
 * Beer types: the presets as toggle chips, then the custom types (chosen,
 * a click removes them), and a box to add one (Enter or 'Add'): trimmed,
 * non-empty, never twice.
 */
export function BeerTypePicker({ presets, value, onChange, disabled }: BeerTypePickerProps) {
  const labelId = useId();
  const inputId = useId();
  const [custom, setCustom] = useState('');
  const [note, setNote] = useState<string>();
  const customs = value.filter((type) => !presets.includes(type));

  const add = () => {
    const next = addBeerType(value, custom, presets);
    if (next) {
      onChange(next);
      setCustom('');
      setNote(undefined);
    } else {
      setNote(custom.trim() ? `${custom.trim()} is already added` : undefined);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the type; it does not submit the session
    add();
  };

  return (
    <div className="field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="field__label">
        Beer Types
      </span>
      <div className="chip-list">
        {[...presets, ...customs].map((type) => (
          <button
            key={type}
            type="button"
            className="chip"
            aria-pressed={value.includes(type)}
            disabled={disabled}
            onClick={() => onChange(toggleBeerType(value, type))}
          >
            {type}
          </button>
        ))}
      </div>
      <div className="inline-add">
        <label htmlFor={inputId} className="visually-hidden">
          Custom beer type
        </label>
        <input
          id={inputId}
          className="field__input"
          placeholder="Add a custom type"
          maxLength={BEER_TYPE_MAX}
          value={custom}
          disabled={disabled}
          onChange={(event) => {
            setCustom(event.target.value);
            setNote(undefined);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button button--secondary button--small" disabled={disabled || !custom.trim()} onClick={add}>
          Add
        </button>
      </div>
      {note && (
        <p className="field__hint" role="status">
          {note}
        </p>
      )}
    </div>
  );
}
