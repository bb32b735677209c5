import type { KeyboardEvent } from 'react';

/**
 * The one keyboard rule of the app's message and comment boxes (issue 40):
 * Enter (also with Ctrl or Cmd) sends, Shift+Enter starts a new line, and
 * an Enter that ends an input method's composition does neither.
 */
export function enterSends(send: () => void) {
  return (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };
}
