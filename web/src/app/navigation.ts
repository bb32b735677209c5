import type { ComponentType, SVGProps } from 'react';
import { CameraIcon, CompassIcon, HomeIcon, MessageIcon, SearchIcon, TrophyIcon, UserIcon, UsersIcon } from '../components/icons';

/** Where the header, hamburger and bottom bar lead (spec section 2). */
export interface NavTarget {
  to: string;
  label: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Other paths where this link is the current one (besides `to` and below it). */
  alsoCurrentOn?: (pathname: string, ownUsername: string | undefined) => boolean;
}

const FEED: NavTarget = { to: '/', label: 'Feed', Icon: HomeIcon };
const FRIENDS: NavTarget = { to: '/friends', label: 'Friends', Icon: UsersIcon };
const MESSAGES: NavTarget = { to: '/messages', label: 'Messages', Icon: MessageIcon };
const DISCOVERY = { to: '/discovery', Icon: CompassIcon };
/** Daily challenges (issue 23): in the header on wide screens and in the hamburger on narrow ones (the spec's bottom bar is five tabs). */
const CHALLENGES: NavTarget = { to: '/challenges', label: 'Challenges', Icon: TrophyIcon };

/** Wide-screen header row and the hamburger dropdown on narrow screens. */
export const HEADER_LINKS: readonly NavTarget[] = [
  FEED,
  { ...DISCOVERY, label: 'Discovery' },
  FRIENDS,
  CHALLENGES,
  MESSAGES,
  { to: '/photos', label: 'Photos', Icon: CameraIcon },
  { to: '/search', label: 'Search', Icon: SearchIcon },
];

/** The fixed bottom bar of narrow screens: the same places, shorter labels, and the profile. */
export const BOTTOM_TABS: readonly NavTarget[] = [
  FEED,
  { ...DISCOVERY, label: 'Discover' },
  FRIENDS,
  MESSAGES,
  {
    to: '/my-profile',
    label: 'Profile',
    Icon: UserIcon,
    // The own profile under its other addresses (issue 40: the tab was dark on /profile); someone else's is not yours.
    alsoCurrentOn: (pathname, own) => pathname === '/profile' || (own !== undefined && pathname === `/profile/${own}`),
  },
];
