import type { EventData } from '@hoptrack/proto';
import type { LiveReactions, LiveSubject } from '@hoptrack/runtime';
import { presenceSubject, type Presence } from './presence';

/**
 * Presence's reactions in the runtime's live feed (beside the audience's,
 * audienceLiveReactions): a changed Show Online Status moves the friends'
 * dots; a new friendship shows each one's dot to the other (issue 40, item 8);
 * an erased account's presence goes. Given before the audience's: the
 * erased person's presence is gone (its keys, and this instance's record of
 * their streams) before the audience's reaction closes their streams, so no
 * closing stream writes them back.
 */
export function presenceLiveReactions(presence: Presence): LiveReactions {
  return {
    // Returned: the event's later reactions (the streams' disconnect) wait for it.
    'user.deleted.v1': ({ data }) => presence.erased(data.userId),
    'user.updated.v1'({ data }) {
      void presence.snapshot(data);
    },
    'social.friendship.accepted.v1'({ data }, hub) {
      void presence.befriended(data.requesterId, data.recipientId).then((deliveries) => {
        for (const { to, entry } of deliveries) hub.deliver([to], 'presence', entry);
      });
    },
  };
}

/**
 * Presence changes come on core NATS, not a stream (they are worth nothing a
 * minute later): every instance hears each one and writes it to the open
 * streams of its audience.
 */
export function presenceLiveSubject(namespace: string): LiveSubject {
  return {
    subject: presenceSubject(namespace),
    react(event, hub) {
      if (event.type !== 'presence.changed.v1') return;
      const { audience, ...presence } = event.data as EventData<'presence.changed.v1'>;
      hub.deliver(audience, 'presence', presence);
    },
  };
}
