import type { MusicTrack } from '@hoptrack/proto';
import { trackLength } from '../../lib/music';

/** '🎵 Name', 'Artist · Album · 3:05' (a song typed by hand has no album and no known length: 'Artist'). */
export function TrackLine({ track }: { track: MusicTrack }) {
  const details = [track.artist, track.album, track.duration > 0 ? trackLength(track.duration) : null].filter(Boolean).join(' · ');
  return (
    <span className="track-line">
      <span className="track-line__icon" aria-hidden="true">
        🎵
      </span>
      <span className="track-line__text">
        <span className="track-line__name">{track.name}</span>
        <span className="track-line__details">{details}</span>
      </span>
    </span>
  );
}
