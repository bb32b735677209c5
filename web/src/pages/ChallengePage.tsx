import { useQuery } from '@tanstack/react-query';
import { uuid } from '@hoptrack/proto';
import { Link, useParams } from 'react-router';
import { BackLink } from '../components/BackLink';
import { ChallengeCard } from '../components/challenges/ChallengeCard';
import { ChallengeParticipants } from '../components/challenges/ChallengeParticipants';
import { EmptyState } from '../components/EmptyState';
import { TrophyIcon } from '../components/icons';
import { LoadingState } from '../components/LoadingState';
import { PageHeader } from '../components/PageHeader';
import { ListError } from '../components/social/UserList';
import { errorStatus } from '../api';
import { challengeQuery } from '../lib/challengesApi';

/**
 * `/challenges/:challengeId`: one challenge's card, where an invitation or a
 * completion notification leads, and the viewer's friends in it with their
 * progress. An unknown id (or anything but an id) says so instead of failing.
 */
export function ChallengePage() {
  const { challengeId = '' } = useParams();
  // The id goes into the URL of the call: anything but an id (`..`, say) must not reach another path.
  const validId = uuid.safeParse(challengeId).success;
  const detail = useQuery({ ...challengeQuery(challengeId), enabled: validId });

  if (detail.data) {
    return (
      <div className="page page--narrow">
        <title>{`${detail.data.title} · Hoptrack`}</title>
        <BackLink to="/challenges" label="Back to Challenges" />
        <ChallengeCard challenge={detail.data} titleLevel={1} />
        <ChallengeParticipants participants={detail.data.participants} target={detail.data.targetValue} />
      </div>
    );
  }
  let body;
  if (validId && detail.isPending) body = <LoadingState label="Loading challenge..." />;
  else if (!validId || errorStatus(detail.error) === 404) {
    body = (
      <EmptyState title="Challenge not available" text="It does not exist, or it is no longer around." Icon={TrophyIcon}>
        <Link to="/challenges" className="button button--primary">
          See today's challenges
        </Link>
      </EmptyState>
    );
  } else {
    body = <ListError text="Failed to fetch the challenge" onRetry={() => void detail.refetch()} />;
  }
  return (
    <div className="page page--narrow">
      <PageHeader title="Challenge" />
      {body}
    </div>
  );
}
