/** The counter shows from this share of the limit on: out of the way until it matters. */
export const COUNT_FROM_SHARE = 0.9;

/**
 * A text box's length against its limit, shown once the text nears it
 * ('1,850 / 2,000') and saying by how much it is over ('12 characters too
 * many'), so nothing typed or pasted is ever cut silently: the box has no
 * maxLength, and the form refuses to send while over.
 */
export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  if (length < max * COUNT_FROM_SHARE) return null;
  const over = length - max;
  return (
    <span id={id} className={`character-count${over > 0 ? ' character-count--over' : ''}`} aria-live="polite">
      {over > 0 ? `${over.toLocaleString('en-US')} ${over === 1 ? 'character' : 'characters'} too many` : `${length.toLocaleString('en-US')} / ${max.toLocaleString('en-US')}`}
    </span>
  );
}
