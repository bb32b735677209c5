import { useId } from 'react';

interface SwitchProps {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** A labelled on/off switch (role="switch", aria-checked); the label text toggles it too. */
export function Switch({ label, description, checked, onCheckedChange, disabled }: SwitchProps) {
  const id = useId();
  const descriptionId = useId();
  return (
    <div className="switch-row">
      <div className="switch-row__text">
        <label htmlFor={id} className="switch-row__label">
          {label}
        </label>
        <p id={descriptionId} className="switch-row__description">
          {description}
        </p>
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={descriptionId}
        className="switch"
        data-state={checked ? 'on' : 'off'}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
      >
        <span className="switch__thumb" />
      </button>
    </div>
  );
}
