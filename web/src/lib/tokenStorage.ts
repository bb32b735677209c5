/** The session token lives in localStorage under `token` (spec section 3). */
export const TOKEN_KEY = 'token';

export function readStoredToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function writeStoredToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable (private mode): the in-memory token still works for this tab
  }
}

/**
 * The sign-in a token belongs to (its `sid` claim, issue 40): what the app's
 * "Sign out" ends on the server, and what /account marks as this device.
 * Read without verifying (the server does that); null for a token without one.
 */
export function sessionIdOf(token: string | null): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: unknown };
    return typeof claims.sid === 'string' ? claims.sid : null;
  } catch {
    return null;
  }
}
