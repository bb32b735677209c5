import { useQuery } from '@tanstack/react-query';
import { FRIEND_REQUESTS_KEY, friendRequestsQuery, FRIENDS_KEY, RELATIONSHIP_KEYS, socialApi } from '../../lib/socialApi';
import { shortDate } from '../../lib/format';
import { ActionButton } from '../social/ActionButton';
import { UserCard } from '../social/UserCard';
import { QueryUserList } from '../social/UserList';

const AFFECTS = [...RELATIONSHIP_KEYS, FRIEND_REQUESTS_KEY, FRIENDS_KEY];
const FAILURE = { title: 'Failed to respond to friend request', fallback: 'Something went wrong.' };
const ANSWERS = [
  { label: 'Accept', action: 'accept', tone: 'primary' },
  { label: 'Reject', action: 'reject', tone: 'ghost' },
] as const;

/** 'Requests': friend requests sent to me, each with Accept and Reject (only the recipient may answer). */
export function FriendRequestsPanel() {
  const requests = useQuery(friendRequestsQuery());
  return (
    <QueryUserList
      label="Friend requests"
      query={requests}
      errorText="Could not load your friend requests."
      empty={{ title: 'No pending requests', text: 'When someone sends you a friend request, it shows up here.' }}
    >
      {(request) => (
        <UserCard
          key={request.id}
          user={request.user}
          open="link"
          meta={request.user.bio ?? `Sent ${shortDate(request.createdAt)}`}
          actions={ANSWERS.map(({ label, action, tone }) => (
            <ActionButton
              key={action}
              label={label}
              tone={tone}
              run={() => socialApi.respond(request.id, action)}
              affects={AFFECTS}
              failure={FAILURE}
            />
          ))}
        />
      )}
    </QueryUserList>
  );
}
