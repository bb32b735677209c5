import type { Album } from '@hoptrack/proto';
import { PHOTO_PICKER_MAX } from '@hoptrack/proto/constants';
import { useEffect, useState, type FormEvent } from 'react';
import { checkPick, pickImages, type PickedImage } from '../../lib/photoPicker';
import { ALBUM_WRITES_AFFECT, photosApi } from '../../lib/photosApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { FilePickerButton } from '../FilePickerButton';
import { Modal } from '../Modal';
import { TextAreaField } from '../TextAreaField';
import { FormActions } from '../FormActions';

/**
 * 'Add Photos': pick images (several at once, or in several picks), see them,
 * add an optional description, upload them in one multipart call. The picker
 * keeps the last 10 images and says which it dropped or refused (a file whose
 * bytes are no image, e.g. text renamed .png, at the field, with no preview).
 * Success closes (the grid refetches and polls until the thumbnails are
 * made); a failure says the server's message at the field and keeps the
 * selection.
 */
export function AddPhotosDialog({ album, onClose }: { album: Pick<Album, 'id' | 'name'>; onClose: () => void }) {
  const [images, setImages] = useState<PickedImage[]>([]);
  const [notes, setNotes] = useState<string[]>([]);
  const [problem, setProblem] = useState<string>();
  const [checking, setChecking] = useState(false);
  const [description, setDescription] = useState('');
  const upload = useSocialAction({
    mutationFn: () => photosApi.addPhotos(album.id, images.map((image) => image.file), description),
    affects: ALBUM_WRITES_AFFECT,
    failure: { fallback: 'Failed to upload photos. Please try again.' },
    showFailure: setProblem,
    onSuccess: onClose,
  });

  const choose = async (files: File[]) => {
    setChecking(true);
    const checked = await checkPick(files).finally(() => setChecking(false));
    const picked = pickImages(images, checked.files);
    setImages(picked.images);
    setNotes(picked.notes);
    setProblem(checked.error);
  };

  const remove = (key: number) => {
    setImages((current) => current.filter((image) => image.key !== key));
    setNotes([]);
    setProblem(undefined);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (images.length > 0) upload.mutate();
  };

  return (
    <Modal
      open
      title="Add Photos"
      description={`Up to ${PHOTO_PICKER_MAX} images at a time to “${album.name}”.`}
      onClose={onClose}
    >
      <form className="form photo-picker" onSubmit={submit}>
        <div className="photo-picker__select">
          <FilePickerButton label="Select Photos" multiple onPick={(files) => void choose(files)} disabled={upload.isPending} error={problem} />
          <span className="photo-picker__count">
            {images.length} of {PHOTO_PICKER_MAX} selected
          </span>
        </div>
        <div className="photo-picker__notes" role="status" aria-live="polite">
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
        {images.length > 0 && (
          <ul className="photo-picker__previews" aria-label="Selected photos">
            {images.map((image) => (
              <li key={image.key} className="photo-picker__preview">
                <PreviewImage file={image.file} />
                <button
                  type="button"
                  className="photo-picker__remove"
                  aria-label={`Remove ${image.file.name}`}
                  title={`Remove ${image.file.name}`}
                  onClick={() => remove(image.key)}
                  disabled={upload.isPending}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <TextAreaField
          label="Description (optional)"
          placeholder="Applies to every photo of this upload"
          maxLength={500}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          disabled={upload.isPending}
        />
        <FormActions onCancel={onClose} pending={upload.isPending} submitLabel="Upload" pendingLabel="Uploading..." submitDisabled={images.length === 0 || checking} />
      </form>
    </Modal>
  );
}

/** A chosen file shown from an object URL that lives exactly as long as the preview. */
function PreviewImage({ file }: { file: File }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return src ? <img className="photo-picker__image" src={src} alt={file.name} /> : <span className="photo-picker__image skeleton" />;
}
