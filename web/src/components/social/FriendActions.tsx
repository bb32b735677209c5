import type { BlockedUser, Friend } from '@hoptrack/proto';
import { MAX_PINNED_FRIENDS, PIN_LIMIT_MESSAGE } from '@hoptrack/proto/constants';
import { useState, type ReactNode } from 'react';
import {
  BLOCKED_KEY,
  FRIEND_REQUESTS_KEY,
  FRIENDS_KEY,
  PINNED_KEY,
  RELATIONSHIP_KEYS,
  socialApi,
} from '../../lib/socialApi';
import { useToast } from '../../lib/toast';
import { useSocialAction } from '../../lib/useSocialAction';
import { ConfirmDialog } from '../ConfirmDialog';
import { Field } from '../Field';
import { ActionButton } from './ActionButton';

/** Pin and mute flags live on the friend rows of both the friends and the pinned list. */
const FRIEND_FLAGS = [FRIENDS_KEY, PINNED_KEY];
/** Ending or blocking a friendship changes every list and every view of that user. */
const FRIENDSHIP_ENDED = [...RELATIONSHIP_KEYS, ...FRIEND_FLAGS, BLOCKED_KEY, FRIEND_REQUESTS_KEY];

type FriendRef = Pick<Friend, 'id' | 'displayName'>;

interface ToggleSide {
  label: string;
  call: (id: string) => Promise<unknown>;
  /** The toast text when the call fails and the server gives no message. */
  failure: string;
}

/** Each flag of a friendship: what setting it (`on`) and clearing it (`off`) do. */
const FLAGS: Record<'pin' | 'mute', { on: ToggleSide; off: ToggleSide }> = {
  pin: {
    on: { label: 'Pin', call: socialApi.pin, failure: 'Failed to pin friend' },
    off: { label: 'Unpin', call: socialApi.unpin, failure: 'Failed to unpin friend' },
  },
  mute: {
    on: { label: 'Mute', call: socialApi.mute, failure: 'Failed to mute user' },
    off: { label: 'Unmute', call: socialApi.unmute, failure: 'Failed to unmute user' },
  },
};

interface FlagToggleProps {
  flag: keyof typeof FLAGS;
  friend: FriendRef;
  /** The flag is set now: the button clears it. */
  active: boolean;
  /** Checked before setting the flag. */
  allowOn?: () => boolean;
}

function FlagToggle({ flag, friend, active, allowOn }: FlagToggleProps) {
  const side = active ? FLAGS[flag].off : FLAGS[flag].on;
  return (
    <ActionButton
      label={side.label}
      run={() => side.call(friend.id)}
      affects={FRIEND_FLAGS}
      failure={{ fallback: side.failure }}
      allow={active ? undefined : allowOn}
    />
  );
}

/** Pin/Unpin. Pinning a sixth friend is refused before any call when the pinned list is known to be full. */
export function PinToggle({ friend, pinned, pinnedCount }: { friend: FriendRef; pinned: boolean; pinnedCount?: number }) {
  const toast = useToast();
  const allowPin = () => {
    if (pinnedCount === undefined || pinnedCount < MAX_PINNED_FRIENDS) return true;
    toast({ title: 'Error', description: PIN_LIMIT_MESSAGE, variant: 'destructive' });
    return false;
  };
  return <FlagToggle flag="pin" friend={friend} active={pinned} allowOn={allowPin} />;
}

/**
 * 'Move up' / 'Move down' on the pinned list: the friend goes one place
 * earlier or later (the spec's pinnedOrder); none past either end.
 */
export function MovePinButtons({ friend, index, count }: { friend: FriendRef; index: number; count: number }) {
  const move = (place: number) => () => socialApi.movePin(friend.id, place);
  const failure = { fallback: 'Failed to pin friend' };
  return (
    <>
      {index > 0 && <ActionButton label="Move up" run={move(index - 1)} affects={FRIEND_FLAGS} failure={failure} tone="ghost" />}
      {index < count - 1 && <ActionButton label="Move down" run={move(index + 1)} affects={FRIEND_FLAGS} failure={failure} tone="ghost" />}
    </>
  );
}

export function MuteToggle({ friend, muted }: { friend: FriendRef; muted: boolean }) {
  return <FlagToggle flag="mute" friend={friend} active={muted} />;
}

export function UnblockButton({ user }: { user: Pick<BlockedUser, 'id'> }) {
  return (
    <ActionButton
      label="Unblock"
      run={() => socialApi.unblock(user.id)}
      affects={[...RELATIONSHIP_KEYS, BLOCKED_KEY]}
      failure={{ fallback: 'Failed to unblock user' }}
    />
  );
}

/** 'Block': asks first, with an optional reason (at most 200 characters). */
export function BlockButton({ friend }: { friend: FriendRef }) {
  const [reason, setReason] = useState('');
  return (
    <ConfirmedAction
      label="Block"
      title={`Block ${friend.displayName}?`}
      description="They will be removed from your friends and won't be able to find you, see your profile or message you."
      run={() => socialApi.block(friend.id, reason.trim() || undefined)}
      failure="Failed to block user"
    >
      <Field label="Reason (optional)" maxLength={200} value={reason} onChange={(event) => setReason(event.target.value)} />
    </ConfirmedAction>
  );
}

/** 'Unfriend': asks first. */
export function UnfriendButton({ friend }: { friend: FriendRef }) {
  return (
    <ConfirmedAction
      label="Unfriend"
      title={`Unfriend ${friend.displayName}?`}
      description="You will stop following each other. You can send a new friend request later."
      run={() => socialApi.unfriend(friend.id)}
      failure="Failed to remove friend"
    />
  );
}

interface ConfirmedActionProps {
  /** The button's and the confirming button's label. */
  label: string;
  title: string;
  description: string;
  run: () => Promise<unknown>;
  /** The toast text when the call fails and the server gives no message. */
  failure: string;
  children?: ReactNode;
}

/** A destructive friendship change behind a confirmation dialog; the dialog closes when it succeeded. */
function ConfirmedAction({ label, title, description, run, failure, children }: ConfirmedActionProps) {
  const [open, setOpen] = useState(false);
  const action = useSocialAction<void, unknown>({
    mutationFn: run,
    affects: FRIENDSHIP_ENDED,
    failure: { fallback: failure },
    onSuccess: () => setOpen(false),
  });
  return (
    <>
      <button type="button" className="button button--ghost button--small button--danger-text" onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <ConfirmDialog
          title={title}
          description={description}
          confirmLabel={label}
          pending={action.isPending}
          onConfirm={() => action.mutate()}
          onClose={() => setOpen(false)}
        >
          {children}
        </ConfirmDialog>
      )}
    </>
  );
}
