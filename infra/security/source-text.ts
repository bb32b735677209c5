/** Reading TypeScript source as text, for the scans that look for a rule's SQL outside its home (audience-home.test.ts). */

/**
 * Source with comments blanked out (so a commented-out route or an '/api' in a
 * doc comment counts for nothing), offsets and line breaks kept. Strings,
 * template literals and regular expression literals are skipped over, so a
 * '/api/media/files/*' is not taken for the start of a comment.
 */
export function stripComments(text: string): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      i += 1;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (c === '/' && /[(,=:[!&|?{};]$|^$/.test(text.slice(0, i).trimEnd().slice(-1))) {
      // A regular expression literal: up to the closing slash outside a character class.
      i += 1;
      let inClass = false;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
    } else {
      i += 1;
    }
  }
  return out.join('');
}
