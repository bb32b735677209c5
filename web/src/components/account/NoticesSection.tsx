import type { ModerationAction } from '@hoptrack/proto';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { myActionsQuery } from '../../lib/authApi';
import { dateTime } from '../../lib/format';
import { LoadError } from './LoadError';

const WHAT: Record<ModerationAction['action'], string> = {
  warn: 'A warning',
  suspend: 'A suspension',
  ban: 'A ban',
  unban: 'Your account was restored',
};

/**
 * Notices from the moderators (issue 42): every action concerning the person,
 * newest first, with the reason they were given (GET /api/me/actions). Shown
 * only when there is one: most people never see this section.
 */
export function NoticesSection() {
  const titleId = useId();
  const actions = useQuery(myActionsQuery());
  if (actions.isError) {
    return (
      <section className="card account-section" aria-labelledby={titleId}>
        <h2 id={titleId} className="account-section__title">
          Notices from the moderators
        </h2>
        <LoadError what="your notices" onRetry={() => void actions.refetch()} />
      </section>
    );
  }
  if (!actions.data?.length) return null;
  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Notices from the moderators
      </h2>
      <p className="account-section__note">What the moderators decided about your account, and why.</p>
      <ul className="account-exports" aria-label="Notices from the moderators">
        {actions.data.map((action) => (
          <li key={action.id} className="account-export">
            <div className="account-export__facts">
              <span className="account-export__requested">
                {WHAT[action.action]}
                {action.endsAt ? `, until ${dateTime(action.endsAt)}` : ''}
              </span>
              <span className="account-export__status">
                {dateTime(action.createdAt)} · {action.reason}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
