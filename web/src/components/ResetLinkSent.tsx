import type { ForgotPasswordResponse } from '@hoptrack/proto';
import { RESET_TOKEN_TTL_MS } from '@hoptrack/proto/constants';

const TTL_HOURS = RESET_TOKEN_TTL_MS / (60 * 60 * 1000);

/**
 * The "check your email" confirmation of both forgot-password flows. In
 * development the server also returns the reset URL; it is offered as a link
 * because no mail is actually sent.
 */
export function ResetLinkSent({ email, response }: { email: string; response: ForgotPasswordResponse }) {
  return (
    <div className="reset-sent">
      <p>
        If an account exists for <strong>{email}</strong>, we've sent a link to reset your password. The link
        expires in {TTL_HOURS} hour{TTL_HOURS === 1 ? '' : 's'}.
      </p>
      {response.resetUrl && (
        <p className="reset-sent__dev">
          <span className="badge">Development</span>{' '}
          <a href={response.resetUrl} className="link">
            Open reset link
          </a>
        </p>
      )}
    </div>
  );
}
