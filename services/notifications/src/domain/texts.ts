import type { NotificationKind } from '@hoptrack/proto';

/** The words of an entry, from its kind, the people it names and what it is about. */
export interface TextFacts {
  /** The newest contribution's kind. */
  kind: NotificationKind;
  /** Every kind in the entry (a like and a comment on one session make one entry). */
  kinds: readonly NotificationKind[];
  /** Display names of the newest actors, newest first (at least one). */
  names: readonly string[];
  actorCount: number;
  /** Contributions (messages, comments) in the entry: "sent you 3 messages". */
  contributions: number;
  /** The title of the session or challenge the entry is about (null when unknown, or for a person). */
  title: string | null;
}

/** "Bob", "Bob and Ann", "Bob and 3 others". */
export function namesOf(names: readonly string[], count: number): string {
  const [first = 'Someone', second] = names;
  if (count <= 1) return first;
  if (count === 2 && second) return `${first} and ${second}`;
  const others = count - 1;
  return `${first} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** What was done to a session, in a fixed order: "liked and commented on", "liked, reacted to and commented on". */
const SESSION_VERBS: ReadonlyArray<[NotificationKind, string]> = [
  ['session.liked', 'liked'],
  ['session.reacted', 'reacted to'],
  ['session.commented', 'commented on'],
];

function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** A title in quotes ("“Friday pints”"), or what to say when it is unknown. */
const quoted = (title: string | null, unknown: string) => (title ? `“${title}”` : unknown);
const session = (title: string | null) => quoted(title, 'a session');
const yourSession = (title: string | null) => (title ? `your session “${title}”` : 'your session');
const challenge = (title: string | null) => quoted(title, 'a challenge');

export function notificationText(facts: TextFacts): string {
  const who = namesOf(facts.names, facts.actorCount);
  switch (facts.kind) {
    case 'friend.requested':
      return `${who} sent you a friend request`;
    case 'friend.accepted':
      return `${who} accepted your friend request`;
    case 'session.liked':
    case 'session.reacted':
    case 'session.commented': {
      const verbs = SESSION_VERBS.filter(([kind]) => facts.kinds.includes(kind)).map(([, verb]) => verb);
      return `${who} ${listOf(verbs)} ${yourSession(facts.title)}`;
    }
    case 'comment.followed':
      return `${who} also commented on ${session(facts.title)}`;
    case 'message.received':
      return facts.contributions > 1 ? `${who} sent you ${facts.contributions} messages` : `${who} sent you a message`;
    // The reader's own doing: addressed to them, not named.
    case 'challenge.completed':
      return `You completed ${challenge(facts.title)}`;
    case 'challenge.invited':
      return `${who} invited you to ${challenge(facts.title)}`;
  }
}
