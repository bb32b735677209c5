import { useQuery } from '@tanstack/react-query';
import type { Challenge, Friend } from '@hoptrack/proto';
import { Link } from 'react-router';
import { challengeQuery, CHALLENGE_READS, challengesApi, invitationsQuery } from '../../lib/challengesApi';
import { friendsQuery } from '../../lib/socialApi';
import { useToast } from '../../lib/toast';
import { useSocialAction } from '../../lib/useSocialAction';
import { Modal } from '../Modal';
import { StaticState } from '../social/FriendshipButton';
import { UserCard } from '../social/UserCard';
import { QueryUserList } from '../social/UserList';

type FriendState = 'joined' | 'invited' | 'open';

/**
 * 'Invite friends': my friends (the list the friends screens read), each
 * with Invite, or 'Joined' when already in it, or 'Invited' while my
 * invitation waits. Only friends are listed; the server still has the last
 * word (an unfriending meanwhile, the cap), and its message is the toast.
 */
export function InviteFriendsDialog({ challenge, onClose }: { challenge: Challenge; onClose: () => void }) {
  const friends = useQuery(friendsQuery());
  const detail = useQuery(challengeQuery(challenge.id));
  const invitations = useQuery(invitationsQuery());
  const stateOf = (friend: Friend): FriendState => {
    if (detail.data?.participants.some((one) => one.person.id === friend.id)) return 'joined';
    const pending = invitations.data?.sent.some((one) => one.challenge.id === challenge.id && one.to.id === friend.id && one.status === 'pending');
    return pending ? 'invited' : 'open';
  };
  return (
    <Modal open title="Invite friends" description={`Challenge your friends to “${challenge.title}” today.`} onClose={onClose}>
      <QueryUserList
        label="Friends to invite"
        query={friends}
        errorText="Could not load your friends."
        empty={{
          title: 'No friends yet',
          text: 'Find people you know and send them a friend request.',
          action: (
            <Link to="/friends" className="button button--primary">
              Find Friends
            </Link>
          ),
        }}
      >
        {(friend) => (
          <UserCard key={friend.id} user={friend} open="none" actions={<InviteButton challenge={challenge} friend={friend} state={stateOf(friend)} />} />
        )}
      </QueryUserList>
    </Modal>
  );
}

function InviteButton({ challenge, friend, state }: { challenge: Challenge; friend: Friend; state: FriendState }) {
  const toast = useToast();
  const invite = useSocialAction<void, unknown>({
    mutationFn: () => challengesApi.invite(challenge.id, friend.id),
    // Inviting also joins me, and changes the friend's row here: every challenge read.
    affects: CHALLENGE_READS,
    failure: { title: 'Failed to send invitation', fallback: 'Something went wrong. Please try again.' },
    onSuccess: () => toast({ title: 'Invitation sent!', description: `${friend.displayName} is invited to “${challenge.title}”.` }),
  });
  if (state === 'joined') return <StaticState label="Joined" />;
  if (state === 'invited') return <StaticState label="Invited" />;
  return (
    <button
      type="button"
      className="button button--primary button--small"
      aria-label={`Invite ${friend.displayName}`}
      disabled={invite.isPending}
      onClick={() => invite.mutate()}
    >
      Invite
    </button>
  );
}
