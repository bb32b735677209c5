import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorStatus, isNetworkFailure, serverError } from '../api';
import { SESSION_WRITES_AFFECT } from './sessionsApi';
import { useToast, type ToastInput } from './toast';

export interface SessionActionOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** The failure toast's title, a text of spec section 8 ('Failed to add comment'). */
  failure: string;
  /** The success toast's title, when the spec has one ('Comment added successfully!'). */
  success?: string;
  /** A like or a reaction: a lapsed sign-in (401) says 'Please log in' (spec section 5). */
  reaction?: boolean;
  onSuccess?: (result: TResult, variables: TVariables) => void;
  /** Shows the write's outcome at once (a like's heart); the function it returns puts the screen back when the call fails. */
  optimistic?: (variables: TVariables) => () => void;
}

/** Said when a write got no answer at all: nothing on the screen was lost, and nothing was saved. */
export const UNREACHABLE_WRITE = 'Couldn’t reach Hoptrack, so nothing was saved. Check your connection and try again.';

/** A failed session write: the spec's title and the server's reason, or 'Please log in' for a reaction without a sign-in. */
export function sessionFailureToast(error: unknown, title: string, reaction = false): ToastInput {
  if (reaction && errorStatus(error) === 401) {
    return { title: 'Please log in', description: 'You need to be logged in to react to posts', variant: 'destructive' };
  }
  const message = isNetworkFailure(error) ? UNREACHABLE_WRITE : serverError(error)?.message;
  return { title, ...(message ? { description: message } : {}), variant: 'destructive' };
}

/**
 * One session write (log, edit, delete, like, comment, react): its success
 * and failure toasts, and the feed, the own list and the own stats refetched
 * (awaited before `isPending` ends, so a toggle never shows its old state).
 * A write that got no answer (offline) changed nothing on the server: the
 * optimistic change is undone and nothing is refetched, so what was loaded
 * stays on screen (issue 40).
 */
export function useSessionAction<TVariables, TResult>({
  mutationFn,
  failure,
  success,
  reaction = false,
  onSuccess,
  optimistic,
}: SessionActionOptions<TVariables, TResult>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn,
    onMutate: (variables) => ({ undo: optimistic?.(variables) }),
    onSuccess: (result, variables) => {
      if (success) toast({ title: success });
      onSuccess?.(result, variables);
    },
    onError: (error, _variables, context) => {
      context?.undo?.();
      toast(sessionFailureToast(error, failure, reaction));
    },
    onSettled: (_result, error) =>
      error && isNetworkFailure(error) ? undefined : Promise.all(SESSION_WRITES_AFFECT.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
