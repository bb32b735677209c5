import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/**
 * Toasts (spec section 9): at most one at a time (a new one replaces the
 * old), shown for 5000 ms unless a duration is given. The <Toaster> renders
 * them; screens only call `toast(...)`.
 */
export const TOAST_DEFAULT_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface ShownToast extends Required<Omit<ToastInput, 'description'>> {
  id: number;
  description?: string;
}

type ShowToast = (input: ToastInput) => void;

interface ToastStore {
  current: ShownToast | null;
  dismiss(id: number): void;
}

const ShowToastContext = createContext<ShowToast | null>(null);
const ToastStoreContext = createContext<ToastStore | null>(null);

let nextToastId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);

  const show = useCallback<ShowToast>((input) => {
    setCurrent({
      id: nextToastId++,
      title: input.title,
      description: input.description,
      variant: input.variant ?? 'default',
      durationMs: input.durationMs ?? TOAST_DEFAULT_DURATION_MS,
    });
  }, []);

  const dismiss = useCallback((id: number) => {
    setCurrent((shown) => (shown?.id === id ? null : shown));
  }, []);

  const store = useMemo<ToastStore>(() => ({ current, dismiss }), [current, dismiss]);
  return (
    <ShowToastContext.Provider value={show}>
      <ToastStoreContext.Provider value={store}>{children}</ToastStoreContext.Provider>
    </ShowToastContext.Provider>
  );
}

/** `const toast = useToast(); toast({ title, description, variant })` */
export function useToast(): ShowToast {
  const show = useContext(ShowToastContext);
  if (!show) throw new Error('useToast must be used inside <ToastProvider>');
  return show;
}

export function useToastStore(): ToastStore {
  const store = useContext(ToastStoreContext);
  if (!store) throw new Error('useToastStore must be used inside <ToastProvider>');
  return store;
}
