import { useQueryClient } from '@tanstack/react-query';
import type { FeedSession, ReactionSummary } from '@hoptrack/proto';
import { useAuth } from '../../lib/auth';
import { reactionTallies, type ReactionTally } from '../../lib/reactions';
import { patchCachedSession, sessionsApi } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { useTooltip } from '../Tooltip';

/**
 * The 18 reactions with their counts (spec section 9). Per emoji it toggles
 * (spec section 4): one the viewer already gave is taken back, else added.
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
  const busy = add.isPending || remove.isPending;
  const toggle = (tally: ReactionTally) => (tally.mine ? remove : add).mutate(tally.emoji);

  return (
    <div className="reaction-bar" role="group" aria-label="Reactions">
      {reactionTallies(session.reactions, user?.id).map((tally) => (
        <ReactionButton key={tally.emoji} tally={tally} disabled={busy} onToggle={toggle} />
      ))}
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
