import { PHOTO_MAX_BYTES } from '@hoptrack/proto/constants';
import { useEffect, useState } from 'react';
import type { PhotoChange } from '../../lib/sessionsApi';
import { useToast } from '../../lib/toast';
import { FilePickerButton } from '../FilePickerButton';

interface PhotoFieldProps {
  /** The session's stored photo (edit), if any. */
  current: string | null;
  value: PhotoChange;
  onChange: (change: PhotoChange) => void;
  disabled?: boolean;
}

const MAX_MEGABYTES = PHOTO_MAX_BYTES / (1024 * 1024);

/**
 * The session photo: 'Select Photo' (images only, refused with a toast
 * otherwise), a preview of what the session will show, and a way to remove it.
 */
export function PhotoField({ current, value, onChange, disabled }: PhotoFieldProps) {
  const toast = useToast();
  const preview = usePreviewUrl(value.kind === 'replace' ? value.file : null);
  const shown = value.kind === 'replace' ? preview : value.kind === 'keep' ? current : null;

  const pick = ([file]: File[]) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: 'Invalid file type', description: 'Please select an image file.', variant: 'destructive' });
    } else if (file.size > PHOTO_MAX_BYTES) {
      toast({ title: 'File too large', description: `Please select an image smaller than ${MAX_MEGABYTES}MB.`, variant: 'destructive' });
    } else {
      onChange({ kind: 'replace', file });
    }
  };

  const remove = () => onChange(current ? { kind: 'remove' } : { kind: 'keep' });

  return (
    <div className="field session-photo">
      <span className="field__label">Photo</span>
      {shown && <img className="session-photo__preview" src={shown} alt="Preview of the session photo" />}
      <div className="session-photo__actions">
        <FilePickerButton label="Select Photo" onPick={pick} disabled={disabled} />
        {shown && (
          <button type="button" className="button button--ghost button--small" onClick={remove} disabled={disabled}>
            Remove photo
          </button>
        )}
      </div>
    </div>
  );
}

/** An object URL of the file that lives exactly as long as the preview. */
function usePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}
