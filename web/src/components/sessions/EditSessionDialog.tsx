import type { FeedSession } from '@hoptrack/proto';
import { EDIT_BEER_TYPES } from '@hoptrack/proto/constants';
import { useQueryClient } from '@tanstack/react-query';
import { draftOf } from '../../lib/sessionDraft';
import { adjustMyStats, sessionsApi, type PhotoChange, type SessionDraft } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { SessionFormDialog } from './SessionFormDialog';

/** 'Edit Beer Session' of the owner: PUT /api/sessions/{id} with every field; new photos replace the stored ones. */
export function EditSessionDialog({ session, onClose }: { session: FeedSession; onClose: () => void }) {
  const queryClient = useQueryClient();
  const update = useSessionAction({
    mutationFn: ({ draft, photo }: { draft: SessionDraft; photo: PhotoChange }) => sessionsApi.update(session.id, draft, photo),
    success: 'Beer session updated successfully!',
    failure: 'Failed to update session',
    onSuccess: (updated) => {
      adjustMyStats(queryClient, session, updated);
      onClose();
    },
  });
  return (
    <SessionFormDialog
      title="Edit Beer Session"
      description="Change what you logged."
      submitLabel="Save Changes"
      pendingLabel="Saving..."
      presets={EDIT_BEER_TYPES}
      initial={draftOf(session)}
      currentPhotos={session.photos}
      pending={update.isPending}
      failure={update.error}
      draftName={`edit-session:${session.id}`}
      onSubmit={(draft, photo) => update.mutateAsync({ draft, photo })}
      onClose={onClose}
    />
  );
}
