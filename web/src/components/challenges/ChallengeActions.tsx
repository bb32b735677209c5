import { useQueryClient } from '@tanstack/react-query';
import type { Challenge } from '@hoptrack/proto';
import { useState } from 'react';
import { applyJoinedChallenge, CHALLENGE_READS, challengesApi } from '../../lib/challengesApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { InviteFriendsDialog } from './InviteFriendsDialog';

/**
 * Join (until joined), then Invite, which opens the list of friends. A
 * challenge whose day has ended (`ended`, from the card's clock) offers
 * neither: the countdown beside says 'Ended'.
 */
export function ChallengeActions({ challenge, ended }: { challenge: Challenge; ended: boolean }) {
  const queryClient = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const join = useSocialAction<void, Challenge>({
    mutationFn: () => challengesApi.join(challenge.id),
    affects: CHALLENGE_READS,
    failure: { title: 'Failed to join the challenge', fallback: 'Something went wrong. Please try again.' },
    // Shown at once; the refetch that follows brings the friends' count too.
    onSuccess: (joined) => applyJoinedChallenge(queryClient, joined),
  });

  if (ended) return null;
  if (!challenge.joined) {
    return (
      <button type="button" className="button button--primary button--small" disabled={join.isPending} onClick={() => join.mutate()}>
        {join.isPending ? 'Joining...' : 'Join'}
      </button>
    );
  }
  return (
    <>
      <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setInviting(true)}>
        Invite
      </button>
      {inviting && <InviteFriendsDialog challenge={challenge} onClose={() => setInviting(false)} />}
    </>
  );
}
