import { useState, type ReactNode } from 'react';
import { ALBUM_WRITES_AFFECT } from '../../lib/photosApi';
import { useSocialAction } from '../../lib/useSocialAction';
import { ConfirmDialog } from '../ConfirmDialog';

const TrashIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M4 7h16" />
    <path d="M10 11v6M14 11v6" />
    <path d="M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12" />
    <path d="M9 7V4h6v3" />
  </svg>
);

interface DeleteButtonProps {
  /** The icon button's accessible name, e.g. "Delete album Summer". */
  label: string;
  /** The confirmation's title and text. */
  title: string;
  description: ReactNode;
  run: () => Promise<unknown>;
  /** The toast text when the call fails and the server gives no message. */
  failure: string;
}

/**
 * A trash-can button that asks first, then deletes: a failure toasts 'Error'
 * and keeps the dialog open; either way the albums and their photo lists are
 * refetched. The dialog closes once the delete succeeded.
 */
export function DeleteButton({ label, title, description, run, failure }: DeleteButtonProps) {
  const [open, setOpen] = useState(false);
  const action = useSocialAction<void, unknown>({
    mutationFn: run,
    affects: ALBUM_WRITES_AFFECT,
    failure: { fallback: failure },
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <button type="button" className="photo-delete" aria-label={label} title={label} onClick={() => setOpen(true)}>
        <TrashIcon />
      </button>
      {open && (
        <ConfirmDialog
          title={title}
          description={description}
          confirmLabel="Delete"
          pending={action.isPending}
          onConfirm={() => action.mutate()}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
