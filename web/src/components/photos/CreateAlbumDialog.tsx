import { albumCreateRequest, type Album } from '@hoptrack/proto';
import { ALBUM_NAME_MAX } from '@hoptrack/proto/constants';
import { useRef, useState, type FormEvent } from 'react';
import { ALBUM_WRITES_AFFECT, photosApi } from '../../lib/photosApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { Field } from '../Field';
import { Modal } from '../Modal';
import { TextAreaField } from '../TextAreaField';
import { FormActions } from '../FormActions';

/** The server's description limit (proto `albumCreateRequest`). */
const DESCRIPTION_MAX = 500;

/**
 * 'Create Album': a required name and an optional description, checked with
 * the shared schema before the call. Success refreshes the grid and closes;
 * a failure toasts and keeps what was typed.
 */
export function CreateAlbumDialog({ onClose, onCreated }: { onClose: () => void; onCreated?: (album: Album) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string>();
  const nameRef = useRef<HTMLInputElement>(null);
  const create = useSocialAction({
    mutationFn: photosApi.createAlbum,
    affects: ALBUM_WRITES_AFFECT,
    failure: { fallback: 'Failed to create album. Please try again.' },
    onSuccess: (album: Album) => {
      onClose();
      onCreated?.(album);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = albumCreateRequest.safeParse({ name, description: description.trim() || undefined });
    if (!parsed.success) {
      setNameError(parsed.error.issues.find((issue) => issue.path[0] === 'name')?.message);
      nameRef.current?.focus();
      return;
    }
    setNameError(undefined);
    create.mutate(parsed.data);
  };

  return (
    <Modal open title="Create Album" description="Collect the photos of a session or a night out." onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          ref={nameRef}
          label="Album Name"
          placeholder="e.g. Oktoberfest 2025"
          required
          maxLength={ALBUM_NAME_MAX}
          autoComplete="off"
          value={name}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <TextAreaField
          label="Description (optional)"
          maxLength={DESCRIPTION_MAX}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <FormActions onCancel={onClose} pending={create.isPending} submitLabel="Create Album" pendingLabel="Creating..." />
      </form>
    </Modal>
  );
}
