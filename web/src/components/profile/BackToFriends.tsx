import { Link } from 'react-router';
import { ArrowLeftIcon } from '../icons';

/** The profile screens' way back: /friends. */
export function BackToFriends() {
  return (
    <Link to="/friends" className="button button--ghost back-link">
      <ArrowLeftIcon width={18} height={18} />
      <span>Back to Friends</span>
    </Link>
  );
}
