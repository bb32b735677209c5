import { useQueryClient } from '@tanstack/react-query';
import type { OtherUser } from '@hoptrack/proto';
import {
  FRIEND_REQUESTS_KEY,
  FRIENDS_KEY,
  RELATIONSHIP_KEYS,
  patchCachedUser,
  socialApi,
  statusAfterRequest,
} from '../../lib/socialApi';
import { useSocialAction } from '../../lib/useSocialAction';

type Relationship = Pick<OtherUser, 'id' | 'friendshipStatus' | 'friendshipId'>;

const AFFECTS = [...RELATIONSHIP_KEYS, FRIENDS_KEY, FRIEND_REQUESTS_KEY];

/**
 * The relationship as one button (spec section 4): none → 'Add Friend',
 * sent → disabled 'Pending', accepted → disabled 'Friends', pending (they
 * asked me) → 'Accept'. The change shows at once in every cached copy of the user.
 */
export function FriendshipButton({ user }: { user: Relationship }) {
  const queryClient = useQueryClient();
  const send = useSocialAction({
    mutationFn: socialApi.sendRequest,
    affects: AFFECTS,
    failure: { title: 'Failed to send friend request', fallback: 'Something went wrong.' },
    onSuccess: (friendship) =>
      patchCachedUser(queryClient, user.id, { friendshipStatus: statusAfterRequest(friendship), friendshipId: friendship.id }),
  });
  const accept = useSocialAction({
    mutationFn: (friendshipId: string) => socialApi.respond(friendshipId, 'accept'),
    affects: AFFECTS,
    failure: { title: 'Failed to respond to friend request', fallback: 'Something went wrong.' },
    onSuccess: () => patchCachedUser(queryClient, user.id, { friendshipStatus: 'accepted', friendshipId: user.friendshipId }),
  });

  switch (user.friendshipStatus) {
    case 'accepted':
      return <StaticState label="Friends" />;
    case 'sent':
      return <StaticState label="Pending" />;
    case 'pending':
      return (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={accept.isPending || !user.friendshipId}
          onClick={() => user.friendshipId && accept.mutate(user.friendshipId)}
        >
          Accept
        </button>
      );
    case 'none':
      return (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={send.isPending}
          onClick={() => send.mutate(user.id)}
        >
          Add Friend
        </button>
      );
  }
}

/** A state shown as a disabled button ('Friends', 'Pending', 'Invited'), where an action would otherwise be. */
export function StaticState({ label }: { label: string }) {
  return (
    <button type="button" className="button button--secondary button--small button--static" disabled>
      {label}
    </button>
  );
}
