import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse, CurrentUser } from '@hoptrack/proto';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, errorStatus, serverError } from '../api';
import { CURRENT_USER_KEY } from './authApi';
import { TOKEN_KEY, readStoredToken, sessionIdOf, writeStoredToken } from './tokenStorage';
import { readableTimes } from './format';

/**
 * Auth state (spec section 4): the token in memory and in localStorage, and
 * the current user from GET /api/me. The query runs only while a token
 * exists, once per page load. A 401 means the token is stale: it is dropped
 * silently and the signed-out UI shows. Any other failure (the API is down,
 * the connection dropped) is not a sign-out: the person stays "signing in",
 * the screen says "Can't reach Hoptrack — retrying", and /api/me is tried
 * again until it answers (issue 40).
 */
export interface AuthState {
  user: CurrentUser | null;
  isAuthenticated: boolean;
  /** A token exists and /api/me has not answered yet. */
  isLoading: boolean;
  /** Loading, and /api/me failed at least once (no answer, or a server error): it is being tried again. */
  isUnreachable: boolean;
  /** Keeps the token of a login/registration and refreshes the current user. */
  signIn(response: AuthResponse): void;
  /** Keeps the new token of the same person (a password change killed the old one); cached answers stay. */
  renewSession(response: AuthResponse): void;
  /** Forgets the token and every cached answer. */
  signOut(): void;
  /**
   * The app's "Sign out": ends this device's sign-in on the server (its token
   * is refused everywhere from the answer on, issue 40), then signs out here.
   * When the server cannot be reached in a few seconds, this browser signs out anyway.
   */
  logOut(): Promise<void>;
  /**
   * Why this browser was signed out by the server (issue 40, item 15: "Your
   * password was changed. Sign in again.", or signed out on another device),
   * shown by the sign-in screens until the next sign-in; null otherwise.
   */
  signedOutNotice: string | null;
}

const AuthContext = createContext<AuthState | null>(null);

/** The longest pause between tries of /api/me while Hoptrack cannot be reached (1, 2, 4, then every 5 s). */
export const ME_RETRY_MAX_MS = 5_000;
/** How long "Sign out" waits for the server to end the sign-in before signing out here regardless. */
const LOGOUT_WAIT_MS = 3000;

/**
 * GET /api/me as the provider reads it: a refused token (401) is null. main.tsx
 * also starts it before the first render (app/firstScreen.ts).
 */
/**
 * The reason of /api/me's last refusal, when auth gave one meant for the person: its messages end
 * 'Sign in again.', or begin 'This account ' (suspended or banned by a moderator, issue 42), their
 * times in the viewer's words.
 */
let lastRefusal: string | null = null;
const refusalOf = (error: unknown): string | null => {
  const message = serverError(error)?.message;
  return message?.endsWith('Sign in again.') || message?.startsWith('This account ') ? readableTimes(message) : null;
};

export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      const user = await api.auth.me();
      lastRefusal = null;
      return user;
    } catch (error) {
      if (errorStatus(error) === 401) {
        lastRefusal = refusalOf(error);
        return null;
      }
      throw error;
    }
  },
  // The one call every signed-in screen waits on. A refused token answers 401, which
  // resolves to null (signed out) and is never retried; what fails otherwise (a restarting
  // service, a dropped connection) is tried again rather than showing the welcome page
  // to someone who is signed in, as long as it takes. Meanwhile the app shows that it is loading,
  // then that it cannot reach Hoptrack and is retrying.
  retry: true,
  retryDelay: (failures) => Math.min(1000 * 2 ** Math.max(0, failures - 1), ME_RETRY_MAX_MS),
});

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readStoredToken);
  const [signedOutNotice, setSignedOutNotice] = useState<string | null>(null);

  const me = useQuery({ ...currentUserQuery, enabled: token !== null });

  const signOut = useCallback(() => {
    writeStoredToken(null);
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  const logOut = useCallback(async () => {
    const sessionId = sessionIdOf(token);
    if (sessionId) {
      const ended = api.auth.signOutDevice({ params: { id: sessionId } }).catch(() => undefined);
      await Promise.race([ended, new Promise((resolve) => window.setTimeout(resolve, LOGOUT_WAIT_MS))]);
    }
    signOut();
  }, [token, signOut]);

  const signIn = useCallback(
    (response: AuthResponse) => {
      setSignedOutNotice(null);
      queryClient.clear();
      writeStoredToken(response.token);
      setToken(response.token);
      queryClient.setQueryData(CURRENT_USER_KEY, response.user);
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
    [queryClient],
  );

  const renewSession = useCallback(
    (response: AuthResponse) => {
      writeStoredToken(response.token);
      setToken(response.token);
      queryClient.setQueryData(CURRENT_USER_KEY, response.user);
    },
    [queryClient],
  );

  // Any other call refused with 401 (the password was changed on another device, the account
  // was deleted): ask /api/me again, whose 401 signs out below. Not while a change of our own
  // is on its way: a password change answers this device's new token, which settles it.
  useEffect(() => {
    if (token === null) return;
    const recheck = (error: unknown) => {
      if (errorStatus(error) !== 401 || queryClient.isMutating() > 0) return;
      void queryClient.refetchQueries({ queryKey: CURRENT_USER_KEY, exact: true }, { cancelRefetch: false });
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') recheck(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') recheck(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [token, queryClient]);

  const tokenRejected = token !== null && me.data === null;
  useEffect(() => {
    if (!tokenRejected) return;
    setSignedOutNotice(lastRefusal);
    signOut();
  }, [tokenRejected, signOut]);

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_KEY && event.key !== null) return;
      const next = readStoredToken();
      setToken(next);
      queryClient.clear();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  const user = token !== null ? (me.data ?? null) : null;
  // A token and no answer yet: loading, however long it takes (a failed try is tried again, never a sign-out).
  const isLoading = token !== null && me.data === undefined;
  const isUnreachable = isLoading && (me.isError || me.failureCount > 0 || me.fetchStatus === 'paused');
  const value = useMemo<AuthState>(
    () => ({
      user,
      isAuthenticated: user !== null,
      isLoading,
      isUnreachable,
      signIn,
      renewSession,
      signOut,
      logOut,
      signedOutNotice,
    }),
    [user, isLoading, isUnreachable, signIn, renewSession, signOut, logOut, signedOutNotice],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
