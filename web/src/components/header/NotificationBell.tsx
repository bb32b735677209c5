import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { badgeText } from '../../lib/format';
import { unreadNotificationsQuery } from '../../lib/notificationsApi';
import { BellIcon } from '../icons';
import { useTooltip } from '../Tooltip';


/**
 * The header's bell (issue 22): a link to /notifications with the unread
 * count, which the live stream keeps current (lib/live.ts sets it from each
 * `notifications` event and refetches it on every reconnect).
 */
export function NotificationBell() {
  const unread = useQuery(unreadNotificationsQuery());
  const count = unread.data?.count ?? 0;
  const label = count > 0 ? `Notifications, ${count} unread` : 'Notifications';
  const { triggerProps, tooltip } = useTooltip('Notifications');
  return (
    <>
      <NavLink to="/notifications" className={({ isActive }) => `bell${isActive ? ' bell--active' : ''}`} aria-label={label} {...triggerProps}>
        <BellIcon width={22} height={22} />
        {count > 0 && (
          <span className="bell__badge" data-testid="notification-count" aria-hidden="true">
            {badgeText(count)}
          </span>
        )}
      </NavLink>
      {tooltip}
    </>
  );
}
