import type { FeedSession } from '@hoptrack/proto';
import { useQueryClient } from '@tanstack/react-query';
import { adjustMyStats, sessionsApi, type CountedSession } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { ConfirmDialog } from '../ConfirmDialog';

/** The owner's delete, after confirmation: the session goes with its likes, comments and reactions. */
export function DeleteSessionDialog({
  session,
  onClose,
}: {
  session: Pick<FeedSession, 'id' | 'title'> & CountedSession;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useSessionAction({
    mutationFn: () => sessionsApi.remove(session.id),
    success: 'Beer session deleted successfully!',
    failure: 'Failed to delete session',
    onSuccess: () => {
      adjustMyStats(queryClient, session, null);
      onClose();
    },
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
