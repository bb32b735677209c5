import { MESSAGE_MAX } from '@hoptrack/proto/constants';
import { useId, useState, type FormEvent } from 'react';
import { enterSends } from '../../lib/enterSends';
import { CharacterCount } from '../CharacterCount';

interface ComposerProps {
  /** Sends the trimmed text; the box empties once it resolves and keeps the text if it rejects. */
  onSend: (content: string) => Promise<unknown>;
  sending: boolean;
  /** Why the viewer cannot write here (the other does not accept direct messages); disables the box. */
  blockedNote?: string;
}

/**
 * The message box (spec section 5): text is trimmed and a blank one cannot
 * be sent. Enter (or Ctrl/Cmd+Enter) sends, Shift+Enter starts a new line,
 * as in a comment box. Near MESSAGE_MAX a counter shows; past it the text is
 * kept and Send waits until it is short enough (issue 40: never cut silently).
 */
export function Composer({ onSend, sending, blockedNote }: ComposerProps) {
  const inputId = useId();
  const noteId = useId();
  const hintId = useId();
  const countId = useId();
  const [text, setText] = useState('');
  const content = text.trim();
  const blocked = blockedNote !== undefined;
  const tooLong = content.length > MESSAGE_MAX;

  const send = () => {
    if (!content || sending || blocked || tooLong) return;
    onSend(content).then(
      () => setText(''),
      () => undefined,
    );
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = enterSends(send);

  return (
    <form className="composer" onSubmit={onSubmit}>
      {blocked && (
        <p id={noteId} className="composer__note">
          {blockedNote}
        </p>
      )}
      <div className="composer__row">
        <label htmlFor={inputId} className="visually-hidden">
          Write a message
        </label>
        <textarea
          id={inputId}
          className="field__input composer__input"
          rows={2}
          placeholder={blocked ? 'Messaging is not available' : 'Type a message...'}
          aria-describedby={blocked ? noteId : `${hintId} ${countId}`}
          aria-invalid={tooLong || undefined}
          value={text}
          disabled={blocked}
          readOnly={sending}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="button button--primary composer__send"
          disabled={!content || sending || blocked || tooLong}
          aria-busy={sending || undefined}
        >
          {sending ? 'Sending...' : 'Send'}
        </button>
      </div>
      {/* A keyboard hint: shown on wide screens only (phones have no Shift+Enter), always read to screen readers. */}
      {!blocked && (
        <div className="composer__footer">
          <p id={hintId} className="composer__hint">
            Enter sends, Shift+Enter starts a new line.
          </p>
          <CharacterCount id={countId} length={content.length} max={MESSAGE_MAX} />
        </div>
      )}
    </form>
  );
}
