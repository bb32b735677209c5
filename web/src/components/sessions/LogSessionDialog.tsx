import { CREATE_BEER_TYPES } from '@hoptrack/proto/constants';
import { useQueryClient } from '@tanstack/react-query';
import { emptyDraft } from '../../lib/sessionDraft';
import { adjustMyStats, sessionsApi, type PhotoChange, type SessionDraft } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { SessionFormDialog } from './SessionFormDialog';

/** 'Log Beer Session': POST /api/sessions; success toasts and closes, the feed and stats refresh. */
export function LogSessionDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const log = useSessionAction({
    mutationFn: ({ draft, photo }: { draft: SessionDraft; photo: PhotoChange }) => sessionsApi.create(draft, photo),
    success: 'Beer session logged successfully!',
    failure: 'Failed to log beer session',
    onSuccess: (created) => {
      adjustMyStats(queryClient, null, created);
      onClose();
    },
  });
  return (
    <SessionFormDialog
      title="Log Beer Session"
      description="What are you drinking, where, and with which tune?"
      submitLabel="Log Session"
      pendingLabel="Logging..."
      presets={CREATE_BEER_TYPES}
      initial={emptyDraft()}
      pending={log.isPending}
      failure={log.error}
      draftName={'log-session'}
      onSubmit={(draft, photo) => log.mutateAsync({ draft, photo })}
      onClose={onClose}
    />
  );
}
