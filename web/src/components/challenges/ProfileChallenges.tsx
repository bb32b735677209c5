import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { userChallengesQuery } from '../../lib/challengesApi';
import { ChallengeBadges } from './ChallengeBadges';

/**
 * A profile's row of completed challenges (GET /api/users/{id}/challenges).
 * Nothing shows while it loads, when there are none, or when it fails: a
 * private profile (403) or a block (404) already says so above it, and the
 * row is a bonus, not the profile's content.
 */
export function ProfileChallenges({ userId }: { userId: string }) {
  const headingId = useId();
  const completed = useQuery(userChallengesQuery(userId));
  if (!completed.data?.length) return null;
  return (
    <section className="profile-challenges" aria-labelledby={headingId}>
      <h2 id={headingId} className="profile-challenges__title">
        Completed challenges
      </h2>
      <ChallengeBadges items={completed.data} label="Completed challenges" />
    </section>
  );
}
