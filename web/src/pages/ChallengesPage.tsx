import { ChallengeInvitations } from '../components/challenges/ChallengeInvitations';
import { CompletedChallenges } from '../components/challenges/CompletedChallenges';
import { TodayChallenges } from '../components/challenges/TodayChallenges';
import { PageHeader } from '../components/PageHeader';

/** `/challenges` (issue 23): today's challenges, invitations from and to friends, and what the viewer completed. */
export function ChallengesPage() {
  return (
    <div className="page page--narrow">
      <PageHeader title="Challenges" subtitle="Something new to try every day: a style, a bar, a photo. Join in and bring your friends." />
      <TodayChallenges />
      <ChallengeInvitations />
      <CompletedChallenges />
    </div>
  );
}
