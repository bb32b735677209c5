import type { FeedSession } from '@hoptrack/proto';
import { sessionsApi } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { ConfirmDialog } from '../ConfirmDialog';

/** The owner's delete, after confirmation: the session goes with its likes, comments and reactions. */
export function DeleteSessionDialog({ session, onClose }: { session: Pick<FeedSession, 'id' | 'title'>; onClose: () => void }) {
  const remove = useSessionAction({
    mutationFn: () => sessionsApi.remove(session.id),
    success: 'Beer session deleted successfully!',
    failure: 'Failed to delete session',
    onSuccess: onClose,
  });
  return (
    <ConfirmDialog
      title="Delete Beer Session"
      description={`“${session.title}” will be deleted with its likes, comments and reactions. This cannot be undone.`}
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => remove.mutate(undefined)}
      onClose={onClose}
    />
  );
}
