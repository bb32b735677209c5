import { useInfiniteQuery } from '@tanstack/react-query';
import { listItems } from '../../lib/cursorPages';
import { sessionLikesQuery } from '../../lib/sessionsApi';
import { Modal } from '../Modal';
import { LoadMoreButton } from '../LoadMoreButton';
import { ListError, UserList, UserListSkeleton } from '../social/UserList';
import { UserCard } from '../social/UserCard';

/**
 * 'Liked by': everyone who liked a session, newest first, each with their
 * avatar and a link to their profile. The card names only three; the list
 * comes a page at a time from GET /api/sessions/{id}/likes, with 'Load more'
 * while the server has a next page.
 */
export function LikersDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  return (
    <Modal open title="Liked by" onClose={onClose}>
      <div className="likers">
        <Likers sessionId={sessionId} />
      </div>
    </Modal>
  );
}

/** The list itself: a skeleton while the first page loads, an error with a retry, or the people and 'Load more'. */
function Likers({ sessionId }: { sessionId: string }) {
  const likes = useInfiniteQuery(sessionLikesQuery(sessionId));
  if (likes.isPending) return <UserListSkeleton label="Loading likes" />;
  if (likes.isError && !likes.isFetchNextPageError) {
    return <ListError text="Could not load likes." onRetry={() => void likes.refetch()} />;
  }
  const people = listItems(likes.data);
  return (
    <>
      {people.length > 0 ? (
        <UserList label="People who liked this" items={people}>
          {(like) => <UserCard key={like.id} user={like.user} open="link" />}
        </UserList>
      ) : (
        <p className="likers__empty">No likes yet.</p>
      )}
      {likes.isFetchNextPageError && (
        <p className="feed-error" role="alert">
          Could not load more likes.
        </p>
      )}
      <LoadMoreButton pages={likes} label="Load more" className="button button--secondary button--small" centered />
    </>
  );
}
