import type { ReactionEmoji, ReactionSummary } from '@hoptrack/proto';
import { REACTION_EMOJIS } from '@hoptrack/proto/constants';

/** What each of the 18 reactions is called (spec section 9), for the buttons' accessible names. */
export const REACTION_NAMES: Readonly<Record<ReactionEmoji, string>> = {
  '👍': 'Thumbs up',
  '❤️': 'Heart',
  '😂': 'Laugh',
  '😮': 'Surprise',
  '😢': 'Sad',
  '😠': 'Angry',
  '🍺': 'Beer',
  '🍻': 'Beers',
  '🥂': 'Toast',
  '🎉': 'Party',
  '🔥': 'Fire',
  '💯': '100',
  '😋': 'Yum',
  '🤤': 'Drool',
  '👌': 'OK',
  '🥳': 'Party face',
  '🤩': 'Star eyes',
  '🙌': 'Raised hands',
};

/** One button of the reaction bar: the emoji, how many chose it, whether the viewer did. */
export interface ReactionTally {
  emoji: ReactionEmoji;
  name: string;
  count: number;
  mine: boolean;
}

/** The bar's 18 buttons in the spec's order, with the counts of the session's reaction summary. */
export function reactionTallies(summaries: readonly ReactionSummary[], viewerId: string | undefined): ReactionTally[] {
  return REACTION_EMOJIS.map((emoji) => {
    const summary = summaries.find((candidate) => candidate.emoji === emoji);
    return {
      emoji,
      name: REACTION_NAMES[emoji],
      count: summary?.count ?? 0,
      mine: viewerId !== undefined && (summary?.users.some((user) => user.id === viewerId) ?? false),
    };
  });
}

/** How many reactions a card shows before its '+' (one row on a phone, issue 40). */
export const QUICK_REACTIONS = 5;

/** What a card offers when few were given: the thumbs, the heart, the laugh, the beer and the fire. */
const QUICK_DEFAULTS: readonly ReactionEmoji[] = ['👍', '❤️', '😂', '🍺', '🔥'];

/**
 * The reactions a card shows before its '+': the most used (ties in the
 * spec's order), topped up with QUICK_DEFAULTS to `count`; shown in the
 * spec's order, so a button moves only when another one overtakes it.
 */
export function quickTallies(tallies: readonly ReactionTally[], count = QUICK_REACTIONS): ReactionTally[] {
  const used = tallies.filter((tally) => tally.count > 0).sort((a, b) => b.count - a.count);
  const chosen = new Set(used.slice(0, count).map((tally) => tally.emoji));
  for (const emoji of QUICK_DEFAULTS) if (chosen.size < count) chosen.add(emoji);
  return tallies.filter((tally) => chosen.has(tally.emoji));
}
