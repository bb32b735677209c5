import { BackLink } from '../BackLink';

/** The profile screens' way back: /friends. */
export function BackToFriends() {
  return <BackLink to="/friends" label="Back to Friends" />;
}
