import { useQuery } from '@tanstack/react-query';
import type { Bar } from '@hoptrack/proto';
import { SESSION_LOCATION_MAX } from '@hoptrack/proto/constants';
import { useId, useState, type KeyboardEvent } from 'react';
import { barAddress, barSearchQuery, mapLink } from '../../lib/catalogueApi';
import { locationFailureToast, milesLabel } from '../../lib/geolocation';
import { useKnownPosition } from '../../lib/knownPosition';
import { coordinate, placeAt, positionLabel, type SessionPlace } from '../../lib/sessionPlace';
import { useToast } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import type { ChosenVenue } from '../venues/FindVenuesDialog';

export type { SessionPlace };

interface PlaceInputProps {
  value: SessionPlace;
  onChange: (place: SessionPlace) => void;
  disabled?: boolean;
}

interface LocationFieldProps extends PlaceInputProps {
  /**
   * Opens the venue dialog. The dialog is rendered beside the session
   * dialog, not inside it: React events bubble through portals, and its
   * search form's submit would also submit the session.
   */
  onFindVenues: () => void;
}

/** Suggestions start after this many characters (spec section 5: longer than 2). */
const SUGGEST_AFTER = 2;
const SUGGEST_DELAY_MS = 250;
const SUGGESTIONS_SHOWN = 5;

/** The place a venue of 'Find Venues' stands for: its name and coordinates. */
export function placeOfVenue(venue: ChosenVenue): SessionPlace {
  return { location: venue.name, latitude: coordinate(venue.latitude), longitude: coordinate(venue.longitude) };
}

/**
 * Where: a text box that suggests bars once more than 2 characters are
 * typed (nearest first, with distances, when the position is known), 'Find
 * Venues' (the venue dialog fills the place and its coordinates) and 'Use my
 * location' (the browser's position, and a name for it: placeAt). The
 * position shows as a map link, never as raw coordinates (issue 40).
 */
export function LocationField({ value, onChange, onFindVenues, disabled }: LocationFieldProps) {
  const toast = useToast();
  const [locating, setLocating] = useState(false);

  const useMyLocation = async () => {
    setLocating(true);
    try {
      const place = await placeAt(value);
      onChange(place);
      toast({
        title: 'Location Found',
        description: place.location ? `${place.location}: added to the session.` : 'Your position was added to the session.',
      });
    } catch (error) {
      toast(locationFailureToast(error));
    } finally {
      setLocating(false);
    }
  };

  return (
    <div className="field location-field">
      <PlaceInput value={value} onChange={onChange} disabled={disabled} />
      <div className="location-field__actions">
        <button type="button" className="button button--secondary button--small" onClick={onFindVenues} disabled={disabled}>
          Find Venues
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => void useMyLocation()}
          disabled={disabled || locating}
        >
          {locating ? 'Locating...' : 'Use my location'}
        </button>
      </div>
      {value.latitude && value.longitude && (
        <p className="location-field__coordinates">
          <span>{positionLabel(value)}</span>
          <a href={mapLink(value.latitude, value.longitude)} target="_blank" rel="noreferrer">
            Open in maps
          </a>
          <button
            type="button"
            className="link-button"
            onClick={() => onChange({ ...value, latitude: '', longitude: '' })}
            disabled={disabled}
          >
            Clear coordinates
          </button>
        </p>
      )}
    </div>
  );
}

/** The place's text with its bar suggestions (an ARIA combobox: arrows, Enter, Escape). */
function PlaceInput({ value, onChange, disabled }: PlaceInputProps) {
  const inputId = useId();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebouncedValue(value.location.trim(), SUGGEST_DELAY_MS);
  const enabled = open && typed.length > SUGGEST_AFTER;
  const { at: here } = useKnownPosition();
  const suggestions = useQuery({ ...barSearchQuery(typed, here), enabled });
  const bars = enabled && value.location.trim().length > SUGGEST_AFTER ? (suggestions.data ?? []).slice(0, SUGGESTIONS_SHOWN) : [];
  const expanded = bars.length > 0;

  const choose = (bar: Bar) => {
    onChange({
      location: bar.name,
      latitude: bar.latitude === null ? value.latitude : coordinate(bar.latitude),
      longitude: bar.longitude === null ? value.longitude : coordinate(bar.longitude),
    });
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!expanded) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + bars.length) % bars.length);
    } else if (event.key === 'Enter' && bars[active]) {
      event.preventDefault();
      choose(bars[active]);
    } else if (event.key === 'Escape') {
      event.stopPropagation(); // closes the suggestions, not the dialog
      setOpen(false);
    }
  };

  return (
    <div className="place-input">
      <label className="field__label" htmlFor={inputId}>
        Location
      </label>
      <input
        id={inputId}
        className="field__input"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="Where are you drinking?"
        autoComplete="off"
        maxLength={SESSION_LOCATION_MAX}
        value={value.location}
        disabled={disabled}
        onChange={(event) => {
          onChange({ ...value, location: event.target.value });
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {expanded && (
        <ul id={listId} className="place-input__list" role="listbox" aria-label="Location suggestions">
          {bars.map((bar, index) => (
            <li
              key={bar.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className="place-input__option"
              onMouseDown={(event) => event.preventDefault()} // keeps the focus in the input
              onClick={() => choose(bar)}
            >
              <span className="place-input__name">{bar.name}</span>
              {barAddress(bar) && <span className="place-input__address">{barAddress(bar)}</span>}
              {bar.distance !== null && <span className="place-input__distance">{milesLabel(bar.distance)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
