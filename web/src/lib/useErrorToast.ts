import { useEffect, useEffectEvent } from 'react';
import { useToast, type ToastInput } from './toast';

/**
 * Shows a destructive toast once per failed query: each new error object of
 * the query (a refetch that fails again is a new one) gives one toast.
 * `describe` turns the error into the toast, or null for none.
 */
export function useErrorToast(error: Error | null, describe: (error: Error) => ToastInput | null): void {
  const toast = useToast();
  const show = useEffectEvent((failure: Error) => {
    const input = describe(failure);
    if (input) toast({ variant: 'destructive', ...input });
  });
  useEffect(() => {
    if (error) show(error);
  }, [error]);
}
