import { PHOTO_MAX_BYTES, SESSION_PHOTOS_MAX } from '@hoptrack/proto/constants';
import { useEffect, useState } from 'react';
import { checkPick, pickImages } from '../../lib/photoPicker';
import type { PhotoChange } from '../../lib/sessionsApi';
import { useToast } from '../../lib/toast';
import { FilePickerButton } from '../FilePickerButton';

interface PhotoFieldProps {
  /** The session's stored photos (edit), in order. */
  current: readonly string[];
  value: PhotoChange;
  onChange: (change: PhotoChange) => void;
  disabled?: boolean;
  /** The server's refusal of the photos the form sent (a 400 naming `sessionPhoto`), shown at the field. */
  error?: string;
}

const MAX_MEGABYTES = PHOTO_MAX_BYTES / (1024 * 1024);

/** A preview's accessible name; one photo keeps the name it always had. */
const previewName = (index: number, count: number) => (count === 1 ? 'Preview of the session photo' : `Preview of session photo ${index + 1} of ${count}`);

/**
 * The session photos: 'Select Photo' (several at once; images only, refused
 * with a toast otherwise), previews of what the session will show, and a way
 * to remove them. Picks add up; the picker keeps the last SESSION_PHOTOS_MAX
 * (spec section 5) and says when earlier ones were dropped. On an edit a new
 * pick replaces the stored photos (the server replaces the whole list).
 */
export function PhotoField({ current, value, onChange, disabled, error }: PhotoFieldProps) {
  const toast = useToast();
  const [notes, setNotes] = useState<string[]>([]);
  const [problem, setProblem] = useState<string>();
  // The server's refusal stands until the next pick; a pick's own refusal is newer.
  const [shownError, setShownError] = useState(error);
  useEffect(() => setShownError(error), [error]);
  const picked = value.kind === 'replace' ? value.images : [];

  const pick = async (chosen: File[]) => {
    // Bytes first: a text file renamed .png is refused at the field and never previewed.
    const checked = await checkPick(chosen);
    setProblem(checked.error);
    setShownError(undefined);
    const files = checked.files;
    const usable = files.filter((file) => {
      if (!file.type.startsWith('image/')) {
        toast({ title: 'Invalid file type', description: 'Please select an image file.', variant: 'destructive' });
        return false;
      }
      if (file.size > PHOTO_MAX_BYTES) {
        toast({ title: 'File too large', description: `Please select an image smaller than ${MAX_MEGABYTES}MB.`, variant: 'destructive' });
        return false;
      }
      return true;
    });
    if (usable.length === 0) return;
    const result = pickImages(picked, usable, SESSION_PHOTOS_MAX);
    setNotes(result.notes);
    onChange({ kind: 'replace', images: result.images });
  };

  const removeAll = () => {
    setNotes([]);
    setProblem(undefined);
    onChange(current.length > 0 ? { kind: 'remove' } : { kind: 'keep' });
  };
  const removeOne = (key: number) => {
    setNotes([]);
    const rest = picked.filter((image) => image.key !== key);
    onChange(rest.length > 0 ? { kind: 'replace', images: rest } : current.length > 0 ? { kind: 'remove' } : { kind: 'keep' });
  };

  const count = value.kind === 'replace' ? picked.length : value.kind === 'keep' ? current.length : 0;
  return (
    <div className="field session-photo">
      <span className="field__label">Photos</span>
      {count > 0 && (
        <ul className="photo-picker__previews" aria-label="Session photos">
          {value.kind === 'replace'
            ? picked.map((image, index) => (
                <li key={image.key} className="photo-picker__preview">
                  <FilePreview file={image.file} alt={previewName(index, count)} />
                  <button
                    type="button"
                    className="photo-picker__remove"
                    aria-label={`Remove ${image.file.name}`}
                    onClick={() => removeOne(image.key)}
                    disabled={disabled}
                  >
                    ×
                  </button>
                </li>
              ))
            : current.map((url, index) => (
                <li key={`${index}:${url}`} className="photo-picker__preview">
                  <img className="photo-picker__image" src={url} alt={previewName(index, count)} />
                </li>
              ))}
        </ul>
      )}
      <div className="session-photo__notes" role="status" aria-live="polite">
        {notes.map((note) => (
          <p key={note}>{note}</p>
        ))}
      </div>
      <div className="session-photo__actions">
        <FilePickerButton label="Select Photo" multiple onPick={(files) => void pick(files)} disabled={disabled} error={problem ?? shownError} />
        {count > 0 && (
          <button type="button" className="button button--ghost button--small" onClick={removeAll} disabled={disabled}>
            {count === 1 ? 'Remove photo' : 'Remove photos'}
          </button>
        )}
        <span className="session-photo__count">
          {count} of {SESSION_PHOTOS_MAX}
        </span>
      </div>
    </div>
  );
}

/** A picked file from an object URL that lives exactly as long as the preview. */
function FilePreview({ file, alt }: { file: File; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return src ? <img className="photo-picker__image" src={src} alt={alt} /> : <span className="photo-picker__image skeleton" />;
}
