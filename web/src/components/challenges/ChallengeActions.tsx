import { useQueryClient } from '@tanstack/react-query';
import type { Challenge } from '@hoptrack/proto';
import { useState } from 'react';
import { applyJoinedChallenge, CHALLENGE_READS, challengesApi } from '../../lib/challengesApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { InviteFriendsDialog } from './InviteFriendsDialog';

/** Its day is over where the viewer is (or it was withdrawn): the server refuses joins and invitations then. */
function hasEnded(challenge: Pick<Challenge, 'isActive' | 'endsAt'>): boolean {
  return !challenge.isActive || Date.parse(challenge.endsAt) <= Date.now();
}

/**
 * Join (until joined), then Invite, which opens the list of friends. A
 * challenge whose day has ended offers neither.
 */
export function ChallengeActions({ challenge }: { challenge: Challenge }) {
  const queryClient = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const join = useSocialAction<void, Challenge>({
    mutationFn: () => challengesApi.join(challenge.id),
    affects: CHALLENGE_READS,
    failure: { title: 'Failed to join the challenge', fallback: 'Something went wrong. Please try again.' },
    // Shown at once; the refetch that follows brings the friends' count too.
    onSuccess: (joined) => applyJoinedChallenge(queryClient, joined),
  });

  if (hasEnded(challenge)) return <span className="challenge__ended">Ended</span>;
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
