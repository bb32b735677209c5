import { NotificationList } from '../components/notifications/NotificationList';
import { NotificationSettingsPanel } from '../components/notifications/NotificationSettingsPanel';
import { PageHeader } from '../components/PageHeader';

/** `/notifications` (issue 22): the inbox, then the per-kind settings. */
export function NotificationsPage() {
  return (
    <div className="page page--narrow">
      <PageHeader title="Notifications" subtitle="What happened to you: friend requests, likes, comments, reactions and messages." />
      <NotificationList />
      <NotificationSettingsPanel />
    </div>
  );
}
