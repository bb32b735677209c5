import { useQuery } from '@tanstack/react-query';
import { shortDate } from '../../lib/format';
import { blockedQuery } from '../../lib/socialApi';
import { UnblockButton } from '../social/FriendActions';
import { UserCard } from '../social/UserCard';
import { QueryUserList } from '../social/UserList';

/** 'Blocked': users I blocked, with why and when, each with Unblock. Their profiles are hidden, so cards don't link. */
export function BlockedUsersPanel() {
  const blocked = useQuery(blockedQuery());
  return (
    <QueryUserList
      label="Blocked users"
      query={blocked}
      errorText="Could not load your blocked users."
      empty={{ title: 'No blocked users', text: "People you block can't find you, see your profile or message you." }}
    >
      {(user) => (
        <UserCard
          key={user.id}
          user={user}
          open="none"
          meta={[user.reason && `Reason: ${user.reason}`, `Blocked ${shortDate(user.blockedAt)}`].filter(Boolean).join(' · ')}
          actions={<UnblockButton user={user} />}
        />
      )}
    </QueryUserList>
  );
}
