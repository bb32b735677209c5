import { SESSION_DESCRIPTION_MAX, SESSION_TITLE_MAX } from '@hoptrack/proto/constants';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { serverError } from '../../api';
import { useFormDraft } from '../../lib/formDraft';
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
import { ConfirmDialog } from '../ConfirmDialog';

interface SessionFormDialogProps {
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  /** CREATE_BEER_TYPES (Log) or EDIT_BEER_TYPES (Edit). */
  presets: readonly string[];
  initial: SessionDraft;
  /** The form's name for its kept draft ('log-session', 'edit-session:<id>'): lib/formDraft.ts. */
  draftName: string;
  /** The stored photos of the session being edited, in order. */
  currentPhotos?: readonly string[];
  pending: boolean;
  /** The last call's failure: a refusal naming `sessionPhoto` shows at the photo field. */
  failure?: unknown;
  /** Sends the form; resolves once it is saved (the kept draft is then dropped), rejects when it failed (the form keeps it all). */
  onSubmit: (draft: SessionDraft, photo: PhotoChange) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The body both session dialogs share (Log Beer Session, Edit Beer
 * Session): title (required), description, beers, minutes, average ABV,
 * beer types, photos, music and place. The spec's checks run before the call;
 * the dialog stays open, with what was typed, until the call succeeds.
 * What was typed is kept as a draft (lib/formDraft.ts) until it is sent or
 * discarded: the next opening after a reload starts from it. Escape, a click
 * outside, × and Cancel ask before throwing typed work away; Enter in a
 * one-line field does not send the form (Ctrl/Cmd+Enter does).
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
  draftName,
  currentPhotos = NO_PHOTOS,
  pending,
  failure,
  onSubmit,
  onClose,
}: SessionFormDialogProps) {
  const refused = serverError(failure);
  const photoError = refused?.field === 'sessionPhoto' ? refused.message : undefined;
  const kept = useFormDraft(draftName, initial);
  const { value: draft, setValue: setDraft } = kept;
  const [photo, setPhoto] = useState<PhotoChange>({ kind: 'keep' });
  const [errors, setErrors] = useState<DraftErrors>({});
  const [findingVenues, setFindingVenues] = useState(false);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const typed = kept.changed || photo.kind !== 'keep';

  const edit = <K extends keyof SessionDraft>(key: K, value: SessionDraft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const setPlace = (place: SessionPlace) => setDraft((current) => ({ ...current, ...place }));
  /** Escape, a click outside, × and Cancel: nothing typed closes at once, typed work asks first. */
  const requestClose = () => {
    if (pending) return;
    if (typed) setConfirmingDiscard(true);
    else onClose();
  };
  const discard = () => {
    kept.clear();
    onClose();
  };
  const discardKept = () => {
    kept.reset();
    setPhoto({ kind: 'keep' });
    setErrors({});
  };
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    // A one-line field's Enter would send the form before the photos and music are in.
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) event.currentTarget.requestSubmit();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = draftErrors(draft);
    setErrors(found);
    const firstInvalid = Object.keys(found)[0];
    if (firstInvalid) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    onSubmit(draft, photo).then(kept.clear, () => undefined);
  };

  return (
    <>
      <Modal open title={title} description={description} onClose={requestClose}>
        <form className="form session-form" onSubmit={submit} onKeyDown={onKeyDown} noValidate>
          {kept.restored && (
            <p className="form-draft-note" role="status">
              Your unsaved draft is back.{' '}
              <button type="button" className="link-button" onClick={discardKept} disabled={pending}>
                Discard draft
              </button>
            </p>
          )}
          <Field
            label="Title"
            name="title"
            placeholder="e.g. Friday pints at the taproom"
            required
            limit={SESSION_TITLE_MAX}
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
          <FormActions onCancel={requestClose} pending={pending} submitLabel={submitLabel} pendingLabel={pendingLabel} />
        </form>
      </Modal>
      <FindVenuesDialog open={findingVenues} onClose={() => setFindingVenues(false)} onSelect={(venue) => setPlace(placeOfVenue(venue))} />
      {confirmingDiscard && (
        <ConfirmDialog
          title="Discard unsaved changes?"
          description="What you typed in this form will be lost."
          confirmLabel="Discard"
          pending={false}
          onConfirm={discard}
          onClose={() => setConfirmingDiscard(false)}
        />
      )}
    </>
  );
}
