import { BackToWhereFrom } from '../BackLink';

/** The profile screens' way back: where the profile was opened from ('Back to Search'), else /friends. */
export function BackToFriends() {
  return <BackToWhereFrom fallback={{ to: '/friends', label: 'Back to Friends' }} />;
}
