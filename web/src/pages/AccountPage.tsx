import { Link } from 'react-router';
import { ChangeEmailForm } from '../components/account/ChangeEmailForm';
import { ChangePasswordForm } from '../components/account/ChangePasswordForm';
import { DeleteAccountSection } from '../components/account/DeleteAccountSection';
import { EmailSection } from '../components/account/EmailSection';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';

/**
 * `/account` (issue 24 item 6): the e-mail address and its verification, a
 * change of e-mail (confirmed by a link to the new address), a change of
 * password (which signs out every other device) and the deletion of the account.
 */
export function AccountPage() {
  const { user } = useAuth();
  if (!user) return null; // <RequireAuth> shows the sign-in panel instead
  return (
    <div className="page page--narrow">
      <PageHeader
        title="Account Settings"
        subtitle="Your e-mail address, your password and your account."
        actions={
          <Link to="/privacy" className="button button--secondary button--small">
            Privacy Settings
          </Link>
        }
      />
      <EmailSection user={user} />
      <ChangeEmailForm />
      <ChangePasswordForm />
      <DeleteAccountSection />
    </div>
  );
}
