import type { PresenceEntry } from '@hoptrack/proto';
import { createContext, useContext, type ReactNode } from 'react';
import { lastSeenLabel, usePresence } from '../../lib/presenceApi';
import { useTooltip } from '../Tooltip';

const PresenceContext = createContext<ReadonlyMap<string, PresenceEntry> | null>(null);

/** Asks once for the presence of everyone a list shows; its avatars (PresenceAvatar) read it. */
export function PresenceScope({ ids, children }: { ids: readonly string[]; children: ReactNode }) {
  const presence = usePresence(ids);
  return <PresenceContext.Provider value={presence}>{children}</PresenceContext.Provider>;
}

/** The person's presence from the nearest PresenceScope (undefined outside one, or when not visible). */
export function useScopedPresence(userId: string | undefined): PresenceEntry | undefined {
  const presence = useContext(PresenceContext);
  return userId ? presence?.get(userId) : undefined;
}

/**
 * An avatar with the green dot of someone online. The dot is an image named
 * "Online" for screen readers; nothing at all shows for anyone else.
 */
export function OnlineBadge({ online, children }: { online: boolean; children: ReactNode }) {
  return (
    <span className="presence-avatar">
      {children}
      {online && <OnlineDot />}
    </span>
  );
}

/** The dot, with the app's tooltip (spec timings) rather than a native title. */
function OnlineDot() {
  const { triggerProps, tooltip } = useTooltip('Online');
  return (
    <>
      <span className="presence-dot" role="img" aria-label="Online" {...triggerProps} />
      {tooltip}
    </>
  );
}

/** The avatar of `userId` in a list inside a PresenceScope. */
export function PresenceAvatar({ userId, children }: { userId: string | undefined; children: ReactNode }) {
  return <OnlineBadge online={useScopedPresence(userId)?.online === true}>{children}</OnlineBadge>;
}

/** "Online" or "Last seen 5m ago" (nothing when hidden or never seen), for a header. */
export function PresenceLine({ entry, className }: { entry: PresenceEntry | undefined; className?: string }) {
  if (!entry) return null;
  if (entry.online) return <span className={`presence-line presence-line--online ${className ?? ''}`}>Online</span>;
  if (!entry.lastSeenAt) return null;
  return (
    <span className={`presence-line ${className ?? ''}`}>
      <time dateTime={entry.lastSeenAt}>{lastSeenLabel(entry.lastSeenAt)}</time>
    </span>
  );
}
