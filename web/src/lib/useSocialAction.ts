import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { serverMessage } from '../api';
import { useToast } from './toast';

export interface ActionFailure {
  title?: string;
  fallback: string;
}

export interface SocialActionOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** Query keys (prefixes) the action changes; refetched once it settled, success or not. */
  affects: readonly QueryKey[];
  /** The failure toast: `title` (default 'Error') and the server's message, else `fallback`. */
  failure: ActionFailure;
  /** Where the failure's words go instead of a toast (a form's field, next to what was refused). */
  showFailure?: (message: string) => void;
  onSuccess?: (result: TResult, variables: TVariables) => void;
}

/**
 * One social write (request, pin, block...): a failure becomes a destructive
 * toast, and the affected queries are refetched before `isPending` turns
 * false, so a toggle never shows its old label after the call succeeded.
 */
export function useSocialAction<TVariables, TResult>({
  mutationFn,
  affects,
  failure,
  showFailure,
  onSuccess,
}: SocialActionOptions<TVariables, TResult>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn,
    onSuccess,
    onError: (error) => {
      const { title = 'Error', fallback } = failure;
      if (showFailure) showFailure(serverMessage(error, fallback));
      else toast({ title, description: serverMessage(error, fallback), variant: 'destructive' });
    },
    onSettled: () => Promise.all(affects.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
