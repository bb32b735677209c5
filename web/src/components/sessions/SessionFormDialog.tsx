import { SESSION_DESCRIPTION_MAX, SESSION_TITLE_MAX } from '@hoptrack/proto/constants';
import { useState, type FormEvent } from 'react';
import { serverError } from '../../api';
import { draftErrors, type DraftErrors } from '../../lib/sessionDraft';
import type { PhotoChange, SessionDraft } from '../../lib/sessionsApi';
import { Field } from '../Field';
import { Modal } from '../Modal';
import { TextAreaField } from '../TextAreaField';
import { FindVenuesDialog } from '../venues/FindVenuesDialog';
import { BeerTypePicker } from './BeerTypePicker';
import { LocationField, placeOfVenue, type SessionPlace } from './LocationField';
import { MusicPicker } from './MusicPicker';
import { PhotoField } from './PhotoField';
import { FormActions } from '../FormActions';

interface SessionFormDialogProps {
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  /** CREATE_BEER_TYPES (Log) or EDIT_BEER_TYPES (Edit). */
  presets: readonly string[];
  initial: SessionDraft;
  /** The stored photos of the session being edited, in order. */
  currentPhotos?: readonly string[];
  pending: boolean;
  /** The last call's failure: a refusal naming `sessionPhoto` shows at the photo field. */
  failure?: unknown;
  onSubmit: (draft: SessionDraft, photo: PhotoChange) => void;
  onClose: () => void;
}

/**
 * The body both session dialogs share (Log Beer Session, Edit Beer
 * Session): title (required), description, beers, minutes, average ABV,
 * beer types, photos, music and place. The spec's checks run before the call;
 * the dialog stays open, with what was typed, until the call succeeds.
 */
/** One shared empty list: a new default each render would be a new prop each time. */
const NO_PHOTOS: readonly string[] = [];

export function SessionFormDialog({
  title,
  description,
  submitLabel,
  pendingLabel,
  presets,
  initial,
  currentPhotos = NO_PHOTOS,
  pending,
  failure,
  onSubmit,
  onClose,
}: SessionFormDialogProps) {
  const refused = serverError(failure);
  const photoError = refused?.field === 'sessionPhoto' ? refused.message : undefined;
  const [draft, setDraft] = useState<SessionDraft>(initial);
  const [photo, setPhoto] = useState<PhotoChange>({ kind: 'keep' });
  const [errors, setErrors] = useState<DraftErrors>({});
  const [findingVenues, setFindingVenues] = useState(false);

  const edit = <K extends keyof SessionDraft>(key: K, value: SessionDraft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const setPlace = (place: SessionPlace) => setDraft((current) => ({ ...current, ...place }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = draftErrors(draft);
    setErrors(found);
    const firstInvalid = Object.keys(found)[0];
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    onSubmit(draft, photo);
  };

  return (
    <>
      <Modal open title={title} description={description} onClose={onClose}>
        <form className="form session-form" onSubmit={submit} noValidate>
          <Field
            label="Title"
            name="title"
            placeholder="e.g. Friday pints at the taproom"
            required
            maxLength={SESSION_TITLE_MAX}
            autoComplete="off"
            value={draft.title}
            error={errors.title}
            disabled={pending}
            onChange={(event) => edit('title', event.target.value)}
          />
          <TextAreaField
            label="Description"
            name="description"
            placeholder="How was it?"
            maxLength={SESSION_DESCRIPTION_MAX}
            value={draft.description}
            disabled={pending}
            onChange={(event) => edit('description', event.target.value)}
          />
          <div className="session-form__numbers">
            <Field
              label="Beers"
              name="beerCount"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={draft.beerCount}
              error={errors.beerCount}
              disabled={pending}
              onChange={(event) => edit('beerCount', event.target.value)}
            />
            <Field
              label="Duration (minutes)"
              name="duration"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={draft.duration}
              error={errors.duration}
              disabled={pending}
              onChange={(event) => edit('duration', event.target.value)}
            />
            <Field
              label="Avg ABV (%)"
              name="avgAbv"
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step={0.1}
              placeholder="e.g. 5.2"
              value={draft.avgAbv}
              error={errors.avgAbv}
              disabled={pending}
              onChange={(event) => edit('avgAbv', event.target.value)}
            />
          </div>
          <BeerTypePicker presets={presets} value={draft.beerTypes} onChange={(types) => edit('beerTypes', types)} disabled={pending} />
          <LocationField
            value={{ location: draft.location, latitude: draft.latitude, longitude: draft.longitude }}
            onChange={setPlace}
            onFindVenues={() => setFindingVenues(true)}
            disabled={pending}
          />
          <PhotoField current={currentPhotos} value={photo} onChange={setPhoto} disabled={pending} error={photoError} />
          <MusicPicker value={draft.musicTrack} onChange={(track) => edit('musicTrack', track)} disabled={pending} />
          <FormActions onCancel={onClose} pending={pending} submitLabel={submitLabel} pendingLabel={pendingLabel} />
        </form>
      </Modal>
      <FindVenuesDialog open={findingVenues} onClose={() => setFindingVenues(false)} onSelect={(venue) => setPlace(placeOfVenue(venue))} />
    </>
  );
}
