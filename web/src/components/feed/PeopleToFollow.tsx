import { useQuery } from '@tanstack/react-query';
import { countLabel } from '../../lib/format';
import { suggestionsQuery } from '../../lib/socialApi';
import { FriendshipButton } from '../social/FriendshipButton';
import { PeopleList } from '../social/PeopleList';

/**
 * An empty feed's way in (issue 40): a few people to follow, friends of
 * friends first, then the most active public profiles (GET
 * /api/users/suggestions), each with its friendship button. Nothing shows
 * while they load, when there are none or when the call fails: the empty
 * state above stands on its own.
 */
export function PeopleToFollow() {
  const people = useQuery(suggestionsQuery()).data ?? [];
  if (people.length === 0) return null;
  return (
    <section className="card people-to-follow" aria-labelledby="people-to-follow-title">
      <h2 id="people-to-follow-title" className="people-to-follow__title">
        People to follow
      </h2>
      <PeopleList
        label="People to follow"
        people={people}
        meta={(user) => (user.mutualFriends > 0 ? `${countLabel(user.mutualFriends, 'friend')} in common` : countLabel(user.totalSessions, 'session'))}
        actions={(user) => <FriendshipButton user={user} />}
      />
    </section>
  );
}
