import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { serverMessage } from '../api';
import { authApi, CURRENT_USER_KEY } from './authApi';
import { useToast } from './toast';

/**
 * Issue 40, item 9: a verification in one tab reaches every other open tab of
 * the browser at once (a BroadcastChannel; same origin, so every tab signed in
 * to this app), which reads the current user again: the banner goes away there
 * too. Another browser or device learns it on its next read of /api/me.
 */
const CHANNEL = 'hoptrack.email-verification';
const VERIFIED = 'verified';

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
}

/** Tells the other tabs this browser's address was just verified. */
export function announceEmailVerified(): void {
  const out = channel();
  out?.postMessage(VERIFIED);
  out?.close();
}

/** While mounted (the banner), a verification announced by another tab reads the current user again. */
export function useEmailVerifiedElsewhere(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const heard = channel();
    if (!heard) return;
    heard.onmessage = (event: MessageEvent) => {
      if (event.data === VERIFIED) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    };
    return () => heard.close();
  }, [queryClient]);
}

/** POST /api/auth/resend-verification, with the toasts the banner and the expired-link page share. */
export function useResendVerification() {
  const toast = useToast();
  return useMutation({
    mutationFn: authApi.resendVerification,
    onSuccess: (res) => toast({ title: 'E-mail sent', description: res.message }),
    onError: (err) => toast({ title: 'Error', description: serverMessage(err, 'Failed to send the verification e-mail'), variant: 'destructive' }),
  });
}
