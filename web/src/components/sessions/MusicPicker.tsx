import type { MusicTrack } from '@hoptrack/proto';
import { useEffect, useId, useState } from 'react';
import { searchTracks } from '../../lib/music';
import { SearchInput } from '../SearchInput';
import { TrackLine } from './TrackLine';

interface MusicPickerProps {
  value: MusicTrack | null;
  onChange: (track: MusicTrack | null) => void;
  disabled?: boolean;
}

/** What was playing: the chosen track, or a search over the built-in tracks to choose one. */
export function MusicPicker({ value, onChange, disabled }: MusicPickerProps) {
  const labelId = useId();
  const [query, setQuery] = useState('');
  const { results, searching } = useTrackSearch(query);

  const choose = (track: MusicTrack) => {
    onChange(track);
    setQuery('');
  };

  return (
    <div className="field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="field__label">
        Music
      </span>
      {value ? (
        <div className="music-choice">
          <TrackLine track={value} />
          <button type="button" className="button button--ghost button--small" onClick={() => onChange(null)} disabled={disabled}>
            Remove track
          </button>
        </div>
      ) : (
        <>
          <SearchInput label="Search music" placeholder="Search for a song or artist" maxLength={100} value={query} onChange={setQuery} />
          {searching && (
            <p className="field__hint" role="status">
              Searching...
            </p>
          )}
          {!searching && query.trim() !== '' && results.length === 0 && (
            <p className="field__hint" role="status">
              No tracks found
            </p>
          )}
          {!searching && results.length > 0 && (
            <ul className="music-results" aria-label="Music results">
              {results.map((track) => (
                <li key={track.id}>
                  <button type="button" className="music-result" onClick={() => choose(track)} disabled={disabled}>
                    <TrackLine track={track} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** The mock search of the typed text; a newer text cancels the older search. */
function useTrackSearch(query: string): { results: MusicTrack[]; searching: boolean } {
  const [results, setResults] = useState<MusicTrack[]>([]);
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (!query.trim()) {
      setResults([]);
      setSearching(false);
      return;
    }
    const controller = new AbortController();
    setSearching(true);
    searchTracks(query, controller.signal).then(
      (found) => {
        setResults(found);
        setSearching(false);
      },
      () => undefined, // aborted: a newer search is on its way
    );
    return () => controller.abort();
  }, [query]);
  return { results, searching };
}
