import { Link } from 'react-router';
import { ChangeEmailForm } from '../components/account/ChangeEmailForm';
import { ChangePasswordForm } from '../components/account/ChangePasswordForm';
import { DeleteAccountSection } from '../components/account/DeleteAccountSection';
import { DevicesSection } from '../components/account/DevicesSection';
import { DownloadDataSection } from '../components/account/DownloadDataSection';
import { EmailSection } from '../components/account/EmailSection';
import { NoticesSection } from '../components/account/NoticesSection';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';

/**
 * `/account` (issue 24 item 6): the e-mail address and its verification, a
 * change of e-mail (confirmed by a link to the new address), a change of
 * password (which signs out every other device), where the person is signed
 * in with a sign-out per device (issue 40), a download of the person's
 * data (a zip prepared by the services) and the deletion of the account;
 * above them, the moderators' notices, when there are any (issue 42).
 */
export function AccountPage() {
  const { user } = useAuth();
  if (!user) return null; // <RequireAuth> shows the sign-in panel instead
  return (
    <div className="page page--narrow">
      <PageHeader
        title="Account Settings"
        subtitle="Your e-mail address, your password, your data and your account."
        actions={
          <Link to="/privacy" className="button button--secondary button--small">
            Privacy Settings
          </Link>
        }
      />
      <NoticesSection />
      <EmailSection user={user} />
      <ChangeEmailForm />
      <ChangePasswordForm />
      <DevicesSection />
      <DownloadDataSection />
      <DeleteAccountSection />
    </div>
  );
}
