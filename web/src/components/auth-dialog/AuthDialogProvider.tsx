import { createContext, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { lazyNamed } from '../../lib/lazyNamed';
import type { AuthDialogView } from './AuthDialog';

// Signed-in people never need the sign-in forms: they are fetched when the dialog first opens.
const AuthDialog = lazyNamed(() => import('./AuthDialog'), 'AuthDialog');

type OpenableView = Extract<AuthDialogView, 'login' | 'register'>;

interface AuthDialogApi {
  openAuthDialog(view?: OpenableView): void;
}

const AuthDialogContext = createContext<AuthDialogApi | null>(null);

/** Owns the one authentication dialog; any screen opens it with `useAuthDialog()`. */
export function AuthDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [initialView, setInitialView] = useState<OpenableView>('login');
  const [session, setSession] = useState(0);

  const openAuthDialog = useCallback((view: OpenableView = 'login') => {
    setInitialView(view);
    setSession((n) => n + 1);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);

  const api = useMemo<AuthDialogApi>(() => ({ openAuthDialog }), [openAuthDialog]);
  return (
    <AuthDialogContext.Provider value={api}>
      {children}
      {/* A new key per opening: closing always resets the dialog to a fresh state. */}
      {open && (
        <Suspense fallback={null}>
          <AuthDialog key={session} initialView={initialView} onClose={close} />
        </Suspense>
      )}
    </AuthDialogContext.Provider>
  );
}

export function useAuthDialog(): AuthDialogApi {
  const api = useContext(AuthDialogContext);
  if (!api) throw new Error('useAuthDialog must be used inside <AuthDialogProvider>');
  return api;
}
