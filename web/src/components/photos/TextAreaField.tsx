import { useId, type ComponentProps } from 'react';

/** A labelled multi-line input, styled like `<Field>` (used for optional descriptions). */
export function TextAreaField({ label, ...textarea }: Omit<ComponentProps<'textarea'>, 'id'> & { label: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea id={id} className="field__input field__textarea" rows={3} {...textarea} />
    </div>
  );
}
