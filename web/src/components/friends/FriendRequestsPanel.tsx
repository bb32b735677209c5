import { useQuery } from '@tanstack/react-query';
import { FRIEND_REQUESTS_KEY, friendRequestsQuery, FRIENDS_KEY, RELATIONSHIP_KEYS, SENT_REQUESTS_KEY, sentRequestsQuery, socialApi } from '../../lib/socialApi';
import { badgeText, shortDate } from '../../lib/format';
import { ActionButton } from '../social/ActionButton';
import { UserCard } from '../social/UserCard';
import { QueryUserList, UserList } from '../social/UserList';

const AFFECTS = [...RELATIONSHIP_KEYS, FRIEND_REQUESTS_KEY, FRIENDS_KEY];
const FAILURE = { title: 'Failed to respond to friend request', fallback: 'Something went wrong.' };
const WITHDRAW_FAILURE = { title: 'Failed to withdraw friend request', fallback: 'Something went wrong.' };
const ANSWERS = [
  { label: 'Accept', action: 'accept', tone: 'primary' },
  { label: 'Reject', action: 'reject', tone: 'ghost' },
] as const;

/** The Requests tab's name, with the count of requests waiting for my answer ('Requests 2 pending'). */
export function RequestsTabLabel() {
  const count = useQuery(friendRequestsQuery()).data?.length ?? 0;
  return (
    <>
      Requests
      {count > 0 && (
        <span className="tabs__count">
          {badgeText(count)}
          <span className="visually-hidden"> pending</span>
        </span>
      )}
    </>
  );
}

/**
 * 'Requests': friend requests sent to me, each with Accept and Reject (only
 * the recipient may answer), then the ones I sent and nobody answered yet,
 * each with Withdraw (only the sender may take one back).
 */
export function FriendRequestsPanel() {
  const requests = useQuery(friendRequestsQuery());
  return (
    <>
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
      <SentRequests />
    </>
  );
}

/** The requests I sent that wait for an answer; shown only when there are some. */
function SentRequests() {
  const sent = useQuery(sentRequestsQuery());
  if (!sent.data?.length) return null;
  return (
    <section className="sent-requests" aria-labelledby="sent-requests-title">
      <h2 id="sent-requests-title" className="sent-requests__title">
        Sent requests
      </h2>
      <UserList label="Sent requests" items={sent.data}>
        {(request) => (
          <UserCard
            key={request.id}
            user={request.user}
            open="link"
            meta={`Sent ${shortDate(request.createdAt)}`}
            actions={
              <ActionButton
                label="Withdraw"
                tone="ghost"
                run={() => socialApi.withdraw(request.id)}
                affects={[...RELATIONSHIP_KEYS, SENT_REQUESTS_KEY]}
                failure={WITHDRAW_FAILURE}
              />
            }
          />
        )}
      </UserList>
    </section>
  );
}
