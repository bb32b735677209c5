import type { FeedSession } from '@hoptrack/proto';
import { abvText, countLabel, durationLabel } from '../../lib/format';
import { TrackLine } from '../sessions/TrackLine';

/** What was drunk: beers, how long ('1 h 35 min'), ABV, the types and the music of the session. */
export function SessionFacts({ session }: { session: FeedSession }) {
  return (
    <>
      <ul className="session-facts" aria-label="Session details">
        <li className="session-facts__item">
          <span className="session-facts__value">{countLabel(session.beerCount, 'beer')}</span>
        </li>
        <li className="session-facts__item">
          <span className="session-facts__value">{durationLabel(session.duration)}</span>
        </li>
        {session.avgAbv && (
          <li className="session-facts__item">
            <span className="session-facts__value">{abvText(session.avgAbv)}</span>
          </li>
        )}
      </ul>
      {session.beerTypes.length > 0 && (
        <ul className="badge-row session-types" aria-label="Beer types">
          {session.beerTypes.map((type) => (
            <li key={type} className="badge">
              {type}
            </li>
          ))}
        </ul>
      )}
      {session.musicTrack && (
        <p className="session-music" aria-label="Music">
          <TrackLine track={session.musicTrack} />
        </p>
      )}
    </>
  );
}
