import { useQueryClient } from '@tanstack/react-query';
import type { FeedSession, ReactionSummary } from '@hoptrack/proto';
import { useAuth } from '../../lib/auth';
import { useState } from 'react';
import { quickTallies, reactionTallies, type ReactionTally } from '../../lib/reactions';
import { patchCachedSession, sessionsApi } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { useTooltip } from '../Tooltip';

/**
 * The reactions with their counts (spec section 9): the few most used
 * (quickTallies), and the rest of the 18 behind '+', so a phone's card keeps
 * them on one row. Per emoji it toggles (spec section 4): one the viewer
 * already gave is taken back, else added.
 */
export function ReactionBar({ session }: { session: Pick<FeedSession, 'id' | 'reactions'> }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const store = (reactions: ReactionSummary[]) => patchCachedSession(queryClient, session.id, (cached) => ({ ...cached, reactions }));
  const add = useSessionAction({
    mutationFn: (emoji: string) => sessionsApi.react(session.id, emoji),
    failure: 'Failed to add reaction',
    reaction: true,
    onSuccess: store,
  });
  const remove = useSessionAction({
    mutationFn: (emoji: string) => sessionsApi.unreact(session.id, emoji),
    failure: 'Failed to remove reaction',
    reaction: true,
    onSuccess: store,
  });
  const [expanded, setExpanded] = useState(false);
  const busy = add.isPending || remove.isPending;
  const toggle = (tally: ReactionTally) => (tally.mine ? remove : add).mutate(tally.emoji);
  const all = reactionTallies(session.reactions, user?.id);
  const quick = quickTallies(all);
  const shown = expanded ? all : quick;
  // What '+' hides that someone gave: its count rides on the button.
  const hiddenGiven = expanded ? 0 : all.filter((tally) => tally.count > 0 && !quick.includes(tally)).length;
  const more = useTooltip(expanded ? 'Fewer reactions' : 'More reactions');

  return (
    <div className={`reaction-bar${expanded ? ' reaction-bar--all' : ''}`} role="group" aria-label="Reactions">
      {shown.map((tally) => (
        <ReactionButton key={tally.emoji} tally={tally} disabled={busy} onToggle={toggle} />
      ))}
      <button
        type="button"
        className="reaction reaction--more"
        aria-expanded={expanded}
        aria-label={expanded ? 'Fewer reactions' : 'More reactions'}
        onClick={() => setExpanded((open) => !open)}
        {...more.triggerProps}
      >
        <span aria-hidden="true">{expanded ? '−' : hiddenGiven > 0 ? `+${hiddenGiven}` : '+'}</span>
      </button>
      {more.tooltip}
    </div>
  );
}

/** One emoji with its count; its tooltip names it (the 18 sit in a row, where the skip delay matters). */
function ReactionButton({ tally, disabled, onToggle }: { tally: ReactionTally; disabled: boolean; onToggle: (tally: ReactionTally) => void }) {
  const { triggerProps, tooltip } = useTooltip(tally.name);
  return (
    <>
      <button
        type="button"
        className="reaction"
        aria-pressed={tally.mine}
        aria-label={tally.count > 0 ? `${tally.name}, ${tally.count}` : tally.name}
        disabled={disabled}
        onClick={() => onToggle(tally)}
        {...triggerProps}
      >
        <span className="reaction__emoji" aria-hidden="true">
          {tally.emoji}
        </span>
        {tally.count > 0 && (
          <span className="reaction__count" aria-hidden="true">
            {tally.count}
          </span>
        )}
      </button>
      {tooltip}
    </>
  );
}
