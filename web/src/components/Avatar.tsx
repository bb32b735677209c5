import type { CurrentUser } from '@hoptrack/proto';
import { useState } from 'react';
import { initialOf } from '../lib/initials';

type AvatarUser = Pick<CurrentUser, 'displayName' | 'profilePicture'>;

/** The user's picture, or their initial on an amber disc when there is none (or it fails to load). */
export function Avatar({ user, size = 36 }: { user: AvatarUser; size?: number }) {
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: size * 0.42 };
  if (user.profilePicture && user.profilePicture !== brokenSrc) {
    return (
      <img className="avatar" style={style} src={user.profilePicture} alt="" onError={() => setBrokenSrc(user.profilePicture)} />
    );
  }
  return (
    <span className="avatar avatar--initials" style={style} aria-hidden="true">
      {initialOf(user.displayName)}
    </span>
  );
}
