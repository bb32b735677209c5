import type { QueryKey } from '@tanstack/react-query';
import { useSocialAction, type ActionFailure } from '../../lib/useSocialAction';

export interface ActionButtonProps {
  label: string;
  /** The call; its failure becomes a toast, then `affects` are refetched. */
  run: () => Promise<unknown>;
  affects: readonly QueryKey[];
  failure: ActionFailure;
  /** Checked before calling: return false to stop (it shows its own message). */
  allow?: () => boolean;
  tone?: 'primary' | 'secondary' | 'ghost';
}

/** A small button that runs one social call and stays disabled until the affected lists are fresh. */
export function ActionButton({ label, run, affects, failure, allow, tone = 'secondary' }: ActionButtonProps) {
  const action = useSocialAction<void, unknown>({ mutationFn: run, affects, failure });
  return (
    <button
      type="button"
      className={`button button--${tone} button--small`}
      disabled={action.isPending}
      onClick={() => {
        if (!allow || allow()) action.mutate();
      }}
    >
      {label}
    </button>
  );
}
