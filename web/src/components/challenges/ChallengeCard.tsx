import type { Challenge } from '@hoptrack/proto';
import { useId } from 'react';
import { Link } from 'react-router';
import { countLabel } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { UsersIcon } from '../icons';
import { ChallengeActions } from './ChallengeActions';
import { ChallengeCountdown, hasEnded } from './ChallengeCountdown';
import { ChallengeProgress } from './ChallengeProgress';

interface ChallengeCardProps {
  challenge: Challenge;
  /** On its own page the title is the screen's h1; in a list, an h3 linking to that page. */
  titleLevel?: 1 | 3;
}

/**
 * One challenge: title, what to do, and once joined the viewer's progress
 * bar; a 'Completed' or 'Joined' mark, how many friends are in it, the time
 * left of the viewer's day ('Ends in 5 h', moving while the page is open),
 * and Join or Invite until it ends.
 */
export function ChallengeCard({ challenge, titleLevel = 3 }: ChallengeCardProps) {
  const titleId = useId();
  const now = useNow();
  const Title = titleLevel === 1 ? 'h1' : 'h3';
  const { title, joined, isCompleted } = challenge;
  return (
    <article className={`card challenge${isCompleted ? ' challenge--completed' : ''}`} aria-labelledby={titleId} data-completed={isCompleted}>
      <div className="challenge__head">
        <Title id={titleId} className={`challenge__title challenge__title--h${titleLevel}`}>
          {titleLevel === 1 ? title : <Link to={`/challenges/${encodeURIComponent(challenge.id)}`}>{title}</Link>}
        </Title>
        {isCompleted ? (
          <span className="badge challenge__state challenge__state--done">Completed</span>
        ) : (
          joined && <span className="badge challenge__state">Joined</span>
        )}
      </div>
      <p className="challenge__description">{challenge.description}</p>
      {joined && <ChallengeProgress label={`Progress on ${title}`} progress={challenge.progress} target={challenge.targetValue} />}
      <div className="challenge__foot">
        <span className="challenge__friends">
          <UsersIcon width={16} height={16} />
          {challenge.friendCount > 0 ? `${countLabel(challenge.friendCount, 'friend')} taking part` : 'No friends taking part yet'}
        </span>
        <span className="challenge__actions">
          <ChallengeCountdown challenge={challenge} now={now} />
          <ChallengeActions challenge={challenge} ended={hasEnded(challenge, now)} />
        </span>
      </div>
    </article>
  );
}
