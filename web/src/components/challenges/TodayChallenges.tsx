import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { todayChallengesQuery } from '../../lib/challengesApi';
import { EmptyState } from '../EmptyState';
import { TrophyIcon } from '../icons';
import { LoadingState } from '../LoadingState';
import { ListError } from '../social/UserList';
import { ChallengeCard } from './ChallengeCard';

/** Today's challenges (today where the browser is), with the viewer's progress on those joined. */
export function TodayChallenges() {
  const headingId = useId();
  const today = useQuery(todayChallengesQuery());
  let body;
  if (today.isPending) body = <LoadingState label="Loading challenges..." />;
  else if (today.isError) body = <ListError text="Failed to fetch challenges" onRetry={() => void today.refetch()} />;
  else if (today.data.length === 0) {
    body = <EmptyState title="No challenges today" text="New challenges come every day. Check back tomorrow!" Icon={TrophyIcon} headingLevel={3} />;
  } else {
    body = (
      <ul className="challenge-list" aria-label="Today's challenges">
        {today.data.map((challenge) => (
          <li key={challenge.id}>
            <ChallengeCard challenge={challenge} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section className="challenge-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="challenge-section__title">
        Today
      </h2>
      {body}
    </section>
  );
}
