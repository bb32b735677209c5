import { profileUpdateRequest, type CurrentUser } from '@hoptrack/proto';
import { BIO_MAX, DISPLAY_NAME_MAX } from '@hoptrack/proto/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { authApi, CURRENT_USER_KEY } from '../../lib/authApi';
import { PROFILE_BY_NAME_ROOT, SEARCH_ROOT, USER_READS } from '../../lib/socialApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { useToast } from '../../lib/toast';
import { Field } from '../Field';
import { Modal } from '../Modal';
import { TextAreaField } from '../TextAreaField';
import { FormActions } from '../FormActions';

/** Where the signed-in user's name and bio show besides the current user: profiles, follow lists, search results. */
const PROFILE_KEYS = [...USER_READS, PROFILE_BY_NAME_ROOT, SEARCH_ROOT];

/**
 * 'Edit Profile': the display name (1-50) and the bio (up to 200), checked
 * with the shared schema (spec section 5, profile update) before PATCH
 * /api/me. Success puts the answer in the cached current user (header, side
 * card and profile follow), toasts and closes; a failure toasts and keeps
 * what was typed. The spec shows the bio but no way to write one; a profile
 * you cannot describe yourself in is not one people expect (docs/decisions.md).
 */
export function EditProfileDialog({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [bio, setBio] = useState(user.bio ?? '');
  const [errors, setErrors] = useState<{ displayName?: string; bio?: string }>({});
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useSocialAction({
    mutationFn: authApi.updateProfile,
    affects: PROFILE_KEYS,
    failure: { fallback: 'Failed to update profile. Please try again.' },
    onSuccess: (updated: CurrentUser) => {
      queryClient.setQueryData(CURRENT_USER_KEY, updated);
      toast({ title: 'Profile updated' });
      onClose();
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = profileUpdateRequest.safeParse({ displayName: displayName.trim(), bio: bio.trim() });
    if (!parsed.success) {
      const messageOf = (field: string) => parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setErrors({ displayName: messageOf('displayName'), bio: messageOf('bio') });
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <Modal open title="Edit Profile" description="How other drinkers see you." onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Display Name"
          required
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="nickname"
          value={displayName}
          error={errors.displayName}
          onChange={(event) => setDisplayName(event.target.value)}
        />
        <TextAreaField
          label="Bio"
          maxLength={BIO_MAX}
          counter
          value={bio}
          error={errors.bio}
          onChange={(event) => setBio(event.target.value)}
        />
        <FormActions onCancel={onClose} pending={save.isPending} submitLabel="Save Profile" pendingLabel="Saving..." />
      </form>
    </Modal>
  );
}
