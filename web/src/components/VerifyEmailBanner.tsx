import { useState } from 'react';
import { useEmailVerifiedElsewhere, useResendVerification } from '../lib/emailVerification';

/** Dismissed for this browser session only: the next visit reminds again until the address is verified. */
const DISMISSED_KEY = 'hoptrack.verifyEmailBannerDismissed';

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Shown while the signed-in person's e-mail address is unverified (AppLayout decides when); gone in every tab once verified in one. */
export function VerifyEmailBanner() {
  const [dismissed, setDismissed] = useState(wasDismissed);
  const resend = useResendVerification();
  useEmailVerifiedElsewhere();
  if (dismissed) return null;
  const dismiss = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage refused (private mode): hidden until reload, which is all we can do.
    }
    setDismissed(true);
  };
  return (
    <section className="card verify-banner" role="region" aria-label="E-mail verification">
      <p>Please verify your e-mail address. We sent you a link when you signed up.</p>
      <div className="verify-banner__actions">
        <button type="button" className="button button--primary" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? 'Sending...' : 'Resend'}
        </button>
        <button type="button" className="button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
