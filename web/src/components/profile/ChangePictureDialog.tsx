import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@hoptrack/proto';
import { useEffect, useState, type FormEvent } from 'react';
import { api, serverMessage } from '../../api';
import { CURRENT_USER_KEY } from '../../lib/authApi';
import { checkPick } from '../../lib/photoPicker';
import { refusePicture, uploadProfilePicture } from '../../lib/profilePicture';
import { PROFILE_BY_NAME_ROOT, SEARCH_ROOT, USER_READS } from '../../lib/socialApi';
import { useToast } from '../../lib/toast';
import { Avatar } from '../Avatar';
import { FilePickerButton } from '../FilePickerButton';
import { Modal } from '../Modal';
import { FormActions } from '../FormActions';

/** Where the signed-in user's picture shows besides the current user: profiles, follow lists, search results. */
const PICTURE_KEYS = [...USER_READS, PROFILE_BY_NAME_ROOT, SEARCH_ROOT];

interface Selection {
  file: File;
  /** An object URL of the file, revoked when the selection changes or the dialog closes. */
  previewUrl: string;
}

/**
 * 'Change profile picture': pick a photo (refused at once, with a toast, when
 * it is not an image or is 5MB or more; at the field when its bytes are no
 * image the server takes, e.g. a text file renamed .png), see it, upload it.
 * Success updates the cached current user (the header avatar follows), toasts
 * and closes; a failure toasts (the spec's 'Upload failed'), says the server's
 * reason at the field and keeps the dialog open for another try. With a
 * picture set and nothing selected, 'Remove picture' goes back to the initials.
 */
export function ChangePictureDialog({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const [selection, setSelection] = useState<Selection | null>(null);
  const [problem, setProblem] = useState<string>();
  const [checking, setChecking] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();

  useEffect(() => {
    if (!selection) return;
    return () => URL.revokeObjectURL(selection.previewUrl);
  }, [selection]);

  /** The answer is the new current user: the header avatar follows, and every list showing the person is read again. */
  const changed = (updated: CurrentUser, title: string) => {
    queryClient.setQueryData<CurrentUser>(CURRENT_USER_KEY, updated);
    for (const queryKey of PICTURE_KEYS) void queryClient.invalidateQueries({ queryKey });
    toast({ title });
    onClose();
  };

  const upload = useMutation({
    mutationFn: uploadProfilePicture,
    onSuccess: (updated) => changed(updated, 'Profile picture updated'),
    onError: (error) => {
      const fallback = 'Failed to update your profile picture. Please try again.';
      toast({ title: 'Upload failed', description: fallback, variant: 'destructive' });
      // The thrown error names the step; the server's reason (a refused image) is its cause.
      setProblem(serverMessage(error instanceof Error && error.cause !== undefined ? error.cause : error, fallback));
    },
  });

  // Issue 40: back to the initials (DELETE /api/me/profile-picture).
  const remove = useMutation({
    mutationFn: () => api.auth.removeProfilePicture(),
    onSuccess: (updated) => changed(updated, 'Profile picture removed'),
    onError: () =>
      toast({
        title: 'Remove failed',
        description: 'Failed to remove your profile picture. Please try again.',
        variant: 'destructive',
      }),
  });
  const busy = upload.isPending || remove.isPending;

  const choose = async ([file]: File[]) => {
    if (!file) return;
    const refusal = refusePicture(file);
    if (refusal) {
      toast({ variant: 'destructive', ...refusal });
      return;
    }
    setChecking(true);
    const checked = await checkPick([file]).finally(() => setChecking(false));
    setProblem(checked.error);
    setSelection(checked.error ? null : { file, previewUrl: URL.createObjectURL(file) });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (selection) upload.mutate(selection.file);
  };

  return (
    <Modal open title="Change profile picture" description="A JPEG, PNG, WebP, GIF or AVIF image under 5MB." onClose={onClose}>
      <form className="form picture-form" onSubmit={submit}>
        <div className="picture-form__preview">
          {selection ? (
            <img className="avatar picture-form__image" src={selection.previewUrl} alt="Preview of the selected photo" />
          ) : (
            <Avatar user={user} size={128} />
          )}
          {selection && <p className="picture-form__name">{selection.file.name}</p>}
        </div>
        <div className="picture-form__picker">
          <FilePickerButton label="Select Photo" onPick={(files) => void choose(files)} disabled={busy} error={problem} />
          {user.profilePicture && !selection && (
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => remove.mutate()}>
              {remove.isPending ? 'Removing...' : 'Remove picture'}
            </button>
          )}
        </div>
        <FormActions
          onCancel={onClose}
          pending={upload.isPending}
          submitLabel="Upload"
          pendingLabel="Uploading..."
          submitDisabled={!selection || checking}
        />
      </form>
    </Modal>
  );
}
