import { useQuery } from '@tanstack/react-query';
import { useAuth } from './auth';
import { unreadMessagesQuery } from './messagingApi';

/**
 * Counts shown on navigation links, by target: the viewer's unread messages
 * on Messages (GET /api/messages/unread, refetched by the live stream).
 */
export function useNavBadges(): Readonly<Partial<Record<string, number>>> {
  const { isAuthenticated } = useAuth();
  const unread = useQuery({ ...unreadMessagesQuery(), enabled: isAuthenticated });
  return { '/messages': unread.data?.unreadMessages ?? 0 };
}
