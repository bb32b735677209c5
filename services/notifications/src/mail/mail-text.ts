import type { Notification } from '@hoptrack/proto';

/**
 * What other people wrote, made safe to put in a mail (issue 39): a display
 * name or a title is data, not the mail's own words. Line breaks become
 * spaces (a name cannot start a new paragraph or a header), and links are
 * neutralised so no mail client makes them clickable ("Support:
 * http://evil.example/x sent you a friend request" read as our own link).
 */
export function neutralised(text: string): string {
  return text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(/\b([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(/\bwww\./gi, 'www[.]')
    .replace(/([a-z0-9-])\.(?=[a-z]{2,}\b)/gi, '$1[.]');
}

/**
 * An entry's line for a mail: its text with each person's name quoted as
 * data (“Bob”) and neutralised, and the title it names neutralised. The
 * entry's text is built from those very names and title (notificationText),
 * so each is found in it as it was put there.
 */
export function mailLine(entry: Pick<Notification, 'text' | 'actors' | 'target'>): string {
  let line = entry.text;
  const title = 'title' in entry.target ? entry.target.title : null;
  if (title) line = line.replace(`“${title}”`, `“${neutralised(title)}”`);
  // Longest first: "Ann Lee" is replaced before an "Ann" inside it could be.
  const names = [...new Set(entry.actors.map((a) => a.displayName))].sort((a, b) => b.length - a.length);
  for (const name of names) line = line.replace(name, `“${neutralised(name)}”`);
  return line.replace(/[\r\n\t\u2028\u2029]+/g, ' ');
}
