import { Link } from 'react-router';
import { ArrowLeftIcon } from './icons';

/** A screen's way back to the list it was opened from ('Back to Friends'). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="button button--ghost back-link">
      <ArrowLeftIcon width={18} height={18} />
      <span>{label}</span>
    </Link>
  );
}
