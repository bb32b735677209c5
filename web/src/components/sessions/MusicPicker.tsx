import type { MusicTrack } from '@hoptrack/proto';
import { MUSIC_TEXT_MAX } from '@hoptrack/proto/constants';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { manualTrack, searchTracks, type ManualTrackProblem } from '../../lib/music';
import { Field } from '../Field';
import { SearchInput } from '../SearchInput';
import { TrackLine } from './TrackLine';

interface MusicPickerProps {
  value: MusicTrack | null;
  onChange: (track: MusicTrack | null) => void;
  disabled?: boolean;
}

/**
 * What was playing: the chosen track, or a search over the built-in tracks to
 * choose one, or a song typed by hand (title and artist: the spec's
 * `service: 'manual'`).
 */
export function MusicPicker({ value, onChange, disabled }: MusicPickerProps) {
  const labelId = useId();
  const [query, setQuery] = useState('');
  const [typing, setTyping] = useState(false);
  const { results, searching } = useTrackSearch(query);

  const choose = (track: MusicTrack) => {
    onChange(track);
    setQuery('');
    setTyping(false);
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
      ) : typing ? (
        <ManualTrackForm initialName={query.trim()} onAdd={choose} onCancel={() => setTyping(false)} disabled={disabled} />
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
          <button type="button" className="link-button music-picker__type" onClick={() => setTyping(true)} disabled={disabled}>
            Type a song instead
          </button>
        </>
      )}
    </div>
  );
}

/** A song typed by hand: its title and artist, both required, each at most MUSIC_TEXT_MAX characters; Enter adds it (never submits the session). */
function ManualTrackForm({
  initialName,
  onAdd,
  onCancel,
  disabled,
}: {
  initialName: string;
  onAdd: (track: MusicTrack) => void;
  onCancel: () => void;
  disabled?: boolean;
}) {
  const [song, setSong] = useState({ name: initialName.slice(0, MUSIC_TEXT_MAX), artist: '' });
  const [problem, setProblem] = useState<ManualTrackProblem>();
  const add = () => {
    const track = manualTrack(song.name, song.artist);
    if ('problem' in track) setProblem(track.problem);
    else onAdd(track);
  };
  const field = (key: 'name' | 'artist', label: string) => (
    <Field
      label={label}
      maxLength={MUSIC_TEXT_MAX}
      value={song[key]}
      disabled={disabled}
      error={problem?.field === key ? problem.message : undefined}
      onChange={(event) => {
        const value = event.target.value;
        setSong((current) => ({ ...current, [key]: value }));
        setProblem(undefined);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        add();
      }}
    />
  );
  return (
    <div className="music-manual">
      <div className="music-manual__fields">
        {field('name', 'Song title')}
        {field('artist', 'Artist')}
      </div>
      <div className="inline-add">
        <button type="button" className="button button--secondary button--small" onClick={add} disabled={disabled}>
          Add song
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onCancel} disabled={disabled}>
          Search instead
        </button>
      </div>
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
