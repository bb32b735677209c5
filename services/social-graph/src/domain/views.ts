import type { BlockedUser as BlockedUserView, Friend, FollowEntry, OtherUser, UserCard } from '@hoptrack/proto';
import { canSee, decideAccess } from '@hoptrack/runtime';
import type { BlockedUser, Friendship, User } from '../db';
import { canViewDetails, friendshipStatusOf, type RelationView } from './relations';

/** A user inside a list. The bio of a private profile stays with its friends. */
/** `detailsVisible` defaults to what a stranger may see (the audience module's rule). */
export function toUserCard(user: User, detailsVisible = canSee(decideAccess({ self: false, blocked: false, friend: false, isProfilePrivate: user.isProfilePrivate }))): UserCard {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    profilePicture: user.profilePicture,
    avatar: user.avatar,
    bio: detailsVisible ? user.bio : null,
    isProfilePrivate: user.isProfilePrivate,
  };
}

export function toOtherUser(user: User, view: RelationView, extra: { mutualFriends: number; totalSessions: number }): OtherUser {
  const details = canViewDetails(view.relation, user);
  return {
    ...toUserCard(user, details),
    email: emailFor(user, view),
    createdAt: user.createdAt.toISOString(),
    joinDate: user.createdAt.toISOString(),
    allowDirectMessages: user.allowDirectMessages,
    // Follows the profile's privacy (issue 39: strangers saw it on a private profile).
    showOnlineStatus: details ? user.showOnlineStatus : false,
    friendshipStatus: friendshipStatusOf(view.relation),
    friendshipId: view.friendshipId,
    totalSessions: details ? extra.totalSessions : 0,
    // Derived from the friend list, which a private profile shows to friends only.
    mutualFriends: details ? extra.mutualFriends : 0,
    canViewDetails: details,
  };
}

/**
 * The e-mail address is the person's own (issue 40): nobody else sees it
 * unless their "Show my e-mail to friends" switch is on, and then friends
 * only, whatever the profile's privacy. A block ends the friendship, so a
 * blocked person never qualifies.
 */
function emailFor(user: User, view: RelationView): string | null {
  if (view.relation === 'self') return user.email;
  return view.relation === 'friend' && user.showEmailToFriends ? user.email : null;
}

export function toFriend(row: Friendship, user: User): Friend {
  return {
    ...toUserCard(user, true),
    friendshipId: row.id,
    isPinned: row.isPinned,
    isMuted: row.isMuted,
    pinnedOrder: row.pinnedOrder,
    friendsSince: row.createdAt.toISOString(),
  };
}

export function toBlockedUser(block: BlockedUser, user: User): BlockedUserView {
  return { ...toUserCard(user, false), reason: block.reason, blockedAt: block.createdAt.toISOString() };
}

export function toFollowEntry(user: User, view: RelationView): FollowEntry {
  return { ...toUserCard(user, canViewDetails(view.relation, user)), friendshipStatus: friendshipStatusOf(view.relation) };
}
