import type { ChallengeParticipant } from '@hoptrack/proto';
import { useId } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../Avatar';
import { avatarOf } from '../social/UserCard';
import { ChallengeProgress } from './ChallengeProgress';

/** The viewer's friends in a challenge, best progress first (the server's order), each with their bar. */
export function ChallengeParticipants({ participants, target }: { participants: readonly ChallengeParticipant[]; target: number }) {
  const headingId = useId();
  return (
    <section className="challenge-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="challenge-section__title">
        Friends taking part
      </h2>
      {participants.length === 0 ? (
        <p className="challenge-section__empty">None of your friends has joined yet. Invite them!</p>
      ) : (
        <ul className="challenge-participants" aria-label="Friends taking part">
          {participants.map(({ person, progress, isCompleted }) => (
            <li key={person.id} className="card challenge-participant" aria-label={person.displayName}>
              <Avatar user={avatarOf(person)} size={40} />
              <div className="challenge-participant__body">
                <div className="challenge__head">
                  <Link to={`/users/${encodeURIComponent(person.id)}`} className="challenge-participant__name">
                    {person.displayName}
                  </Link>
                  {isCompleted && <span className="badge challenge__state challenge__state--done">Completed</span>}
                </div>
                <ChallengeProgress label={`Progress of ${person.displayName}`} progress={progress} target={target} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
