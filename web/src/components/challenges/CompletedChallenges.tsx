import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { completedChallengesQuery } from '../../lib/challengesApi';
import { LoadingState } from '../LoadingState';
import { LoadMoreButton } from '../LoadMoreButton';
import { ListError } from '../social/UserList';
import { ChallengeBadges } from './ChallengeBadges';

/** Every challenge the viewer completed, newest first, a page at a time. */
export function CompletedChallenges() {
  const headingId = useId();
  const completed = useInfiniteQuery(completedChallengesQuery());
  let body;
  if (completed.isPending) body = <LoadingState label="Loading completed challenges..." />;
  else if (completed.isError && !completed.isFetchNextPageError) {
    body = <ListError text="Failed to fetch completed challenges" onRetry={() => void completed.refetch()} />;
  } else {
    // By id, once: a completion while paging shifts the later pages by one.
    const items = [...new Map((completed.data?.pages.flat() ?? []).map((one) => [one.id, one])).values()];
    body =
      items.length === 0 ? (
        <p className="challenge-section__empty">Challenges you complete will show up here.</p>
      ) : (
        <>
          <ChallengeBadges items={items} label="Completed challenges" />
          <LoadMoreButton pages={completed} label="Load more" />
        </>
      );
  }
  return (
    <section className="challenge-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="challenge-section__title">
        Completed
      </h2>
      {body}
    </section>
  );
}
