import { useQueryClient } from '@tanstack/react-query';
import type { FeedSession } from '@hoptrack/proto';
import { patchCachedSession, sessionsApi } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';

/**
 * The like toggle (spec section 4): a liked session is unliked, otherwise
 * liked. The heart and the count change at once; a failed call puts them back
 * and says why (useSessionAction).
 */
export function LikeButton({ session }: { session: Pick<FeedSession, 'id' | 'isLikedByCurrentUser'> }) {
  const queryClient = useQueryClient();
  const toggle = useSessionAction({
    mutationFn: (liked: boolean) => (liked ? sessionsApi.unlike(session.id) : sessionsApi.like(session.id)),
    failure: 'Failed to update like status',
    reaction: true,
    optimistic: (liked: boolean) => {
      const flip = (to: boolean) => (cached: FeedSession) =>
        cached.isLikedByCurrentUser === to ? cached : { ...cached, isLikedByCurrentUser: to, likeCount: Math.max(0, cached.likeCount + (to ? 1 : -1)) };
      patchCachedSession(queryClient, session.id, flip(!liked));
      return () => patchCachedSession(queryClient, session.id, flip(liked));
    },
    onSuccess: ({ liked, likeCount }) =>
      patchCachedSession(queryClient, session.id, (cached) => ({ ...cached, isLikedByCurrentUser: liked, likeCount })),
  });
  const liked = session.isLikedByCurrentUser;
  return (
    <button
      type="button"
      className="session-action"
      aria-pressed={liked}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate(liked)}
    >
      <span className="session-action__icon" aria-hidden="true">
        {liked ? '❤️' : '🤍'}
      </span>
      Like
    </button>
  );
}
