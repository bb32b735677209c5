import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FeedSession, SessionComment } from '@hoptrack/proto';
import { COMMENT_MAX, COMMENTS_IN_CARD } from '@hoptrack/proto/constants';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { useAuth } from '../../lib/auth';
import { enterSends } from '../../lib/enterSends';
import { patchCachedSession, sessionCommentsKey, sessionCommentsQuery, sessionsApi } from '../../lib/sessionsApi';
import { useSessionAction } from '../../lib/useSessionAction';
import { Avatar } from '../Avatar';
import { RelativeTime } from '../RelativeTime';
import { useTooltip } from '../Tooltip';
import { ListError } from '../social/UserList';
import { avatarOf } from '../social/UserCard';

type CommentedSession = Pick<FeedSession, 'id' | 'userId' | 'comments' | 'commentCount'>;

/**
 * Applies one own comment write to the card and, when it was loaded, to the
 * full list. The card keeps only the newest COMMENTS_IN_CARD, as the server's
 * next answer will, so the refetch that follows changes nothing on screen.
 */
function storeComments(
  queryClient: QueryClient,
  sessionId: string,
  change: (comments: SessionComment[]) => SessionComment[],
  countDelta: number,
): void {
  patchCachedSession(queryClient, sessionId, (cached) => ({
    ...cached,
    comments: change(cached.comments).slice(-COMMENTS_IN_CARD),
    commentCount: Math.max(0, cached.commentCount + countDelta),
  }));
  queryClient.setQueryData<SessionComment[]>(sessionCommentsKey(sessionId), (all) => (all ? change(all) : all));
}

/**
 * The expanded comments of a card, oldest first, and the box to add one. The
 * card carries only the newest few; 'View all N comments' loads the rest
 * (GET /api/sessions/{id}/comments) and shows every one from then on.
 * `revealNewest` (a session opened at its comments) scrolls the newest
 * comment into view once, as the section first shows.
 */
export function CommentsSection({ session, id, revealNewest = false }: { session: CommentedSession; id: string; revealNewest?: boolean }) {
  const [showAll, setShowAll] = useState(false);
  const all = useQuery({ ...sessionCommentsQuery(session.id), enabled: showAll });
  const listRef = useRef<HTMLUListElement>(null);
  // The button goes away once the list is in: focus moves to the list instead of falling to the page.
  const focusList = useRef(false);
  const full = showAll ? all.data : undefined;
  const comments = full ?? session.comments;
  const failed = showAll && all.isError && !full;
  const moreOnServer = !full && !failed && session.commentCount > session.comments.length;

  useEffect(() => {
    if (!revealNewest) return;
    const section = document.getElementById(id);
    const newest = section?.querySelector('.comment:last-child') ?? section;
    newest?.scrollIntoView({ block: 'center' });
    // Once, as the section opens (neither changes later): the reader's own comments do not move the page.
  }, [id, revealNewest]);

  useEffect(() => {
    if (!full || !focusList.current) return;
    focusList.current = false;
    listRef.current?.focus();
  }, [full]);

  return (
    <section id={id} className="session-comments" aria-label="Comments">
      {moreOnServer && (
        <button
          type="button"
          className="link-button session-comments__all"
          disabled={showAll}
          onClick={() => {
            focusList.current = true;
            setShowAll(true);
          }}
        >
          {showAll ? 'Loading...' : `View all ${session.commentCount} comments`}
        </button>
      )}
      {failed && <ListError text="Could not load comments." onRetry={() => void all.refetch()} />}
      {comments.length > 0 ? (
        <ul ref={listRef} className="comment-list" tabIndex={-1}>
          {comments.map((comment) => (
            <CommentItem key={comment.id} session={session} comment={comment} />
          ))}
        </ul>
      ) : (
        <p className="session-comments__empty">No comments yet. Start the conversation!</p>
      )}
      <CommentForm sessionId={session.id} />
    </section>
  );
}

/** One comment; its author may edit it, its author and the session's owner may delete it. */
function CommentItem({ session, comment }: { session: CommentedSession; comment: SessionComment }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useSessionAction({
    mutationFn: () => sessionsApi.deleteComment(session.id, comment.id),
    failure: 'Failed to delete comment',
    onSuccess: () =>
      storeComments(queryClient, session.id, (comments) => comments.filter((candidate) => candidate.id !== comment.id), -1),
  });
  const mayEdit = user !== null && user.id === comment.userId;
  const mayDelete = user !== null && (user.id === comment.userId || user.id === session.userId);
  const deleteTip = useTooltip('Delete comment');
  return (
    <li className="comment" aria-label={`Comment by ${comment.user.displayName}`}>
      <Avatar user={avatarOf(comment.user)} size={32} />
      <div className="comment__body">
        <p className="comment__meta">
          <span className="comment__author">{comment.user.displayName}</span>
          <RelativeTime className="comment__time" at={comment.createdAt} />
          {comment.editedAt && (
            <span className="comment__edited" title={`Edited ${new Date(comment.editedAt).toLocaleString()}`}>
              (edited)
            </span>
          )}
          {mayEdit && !editing && (
            <button type="button" className="link-button comment__edit" aria-label="Edit comment" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
        </p>
        {editing ? (
          <CommentEditForm session={session} comment={comment} onDone={() => setEditing(false)} />
        ) : (
          <p className="comment__content">{comment.content}</p>
        )}
      </div>
      {mayDelete && (
        <button
          type="button"
          className="comment__delete"
          aria-label="Delete comment"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined)}
          {...deleteTip.triggerProps}
        >
          ×
        </button>
      )}
      {deleteTip.tooltip}
    </li>
  );
}

/** One's own comment in a box, as it reads: Save sends the new text (the same rules as a new comment), Cancel or Escape keeps the old one. */
function CommentEditForm({ session, comment, onDone }: { session: CommentedSession; comment: SessionComment; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [content, setContent] = useState(comment.content);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const edit = useSessionAction({
    mutationFn: (text: string) => sessionsApi.editComment(session.id, comment.id, text),
    failure: 'Failed to edit comment',
    onSuccess: (edited) => {
      storeComments(queryClient, session.id, (comments) => comments.map((candidate) => (candidate.id === edited.id ? edited : candidate)), 0);
      onDone();
    },
  });
  const text = content.trim();
  useEffect(() => {
    const input = inputRef.current;
    input?.focus();
    input?.setSelectionRange(input.value.length, input.value.length);
  }, []);
  const save = () => {
    if (!text || edit.isPending) return;
    if (text === comment.content) onDone();
    else edit.mutate(text);
  };
  return (
    <form
      className="comment-form comment-form--edit"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <CommentBox label="Edit your comment" value={content} onChange={setContent} onSend={save} onEscape={onDone} pending={edit.isPending} inputRef={inputRef} />
      <div className="comment-form__footer comment-form__footer--end">
        <button type="button" className="button button--ghost button--small" onClick={onDone} disabled={edit.isPending}>
          Cancel
        </button>
        <button type="submit" className="button button--primary button--small" disabled={!text || edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

interface CommentBoxProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+Enter. */
  onSend: () => void;
  /** Escape, for a box that can be left (an edit); only the box closes, not a dialog around the card. */
  onEscape?: () => void;
  pending: boolean;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  placeholder?: string;
  describedBy?: string;
}

/** A comment's text box, new or edited: a hidden label, the length limit, Enter (or Ctrl/Cmd+Enter) sends, Shift+Enter a new line, Escape leaves an edit. */
function CommentBox({ label, value, onChange, onSend, onEscape, pending, inputRef, placeholder, describedBy }: CommentBoxProps) {
  const inputId = useId();
  const sendOnEnter = enterSends(onSend);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      event.stopPropagation();
      onEscape();
    } else sendOnEnter(event);
  };
  return (
    <>
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <textarea
        ref={inputRef}
        id={inputId}
        className="field__input field__textarea comment-form__input"
        rows={2}
        placeholder={placeholder}
        maxLength={COMMENT_MAX}
        aria-describedby={describedBy}
        value={value}
        readOnly={pending}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </>
  );
}

/** A comment box (spec section 5): trimmed text must not be empty; Enter or Ctrl/Cmd+Enter posts, Shift+Enter starts a new line, as in a message box (issue 40). */
function CommentForm({ sessionId }: { sessionId: string }) {
  const hintId = useId();
  const queryClient = useQueryClient();
  const [content, setContent] = useState('');
  const add = useSessionAction({
    mutationFn: (text: string) => sessionsApi.comment(sessionId, text),
    success: 'Comment added successfully!',
    failure: 'Failed to add comment',
    onSuccess: (comment) => {
      setContent('');
      storeComments(queryClient, sessionId, (comments) => [...comments, comment], 1);
    },
  });
  const text = content.trim();

  const send = () => {
    if (text && !add.isPending) add.mutate(text);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send();
  };

  return (
    <form className="comment-form" onSubmit={onSubmit}>
      <CommentBox label="Add a comment" value={content} onChange={setContent} onSend={send} pending={add.isPending} placeholder="Write a comment..." describedBy={hintId} />
      <div className="comment-form__footer">
        <span id={hintId} className="comment-form__hint">
          Enter posts, Shift+Enter starts a new line.
        </span>
        <button type="submit" className="button button--primary button--small" disabled={!text || add.isPending}>
          {add.isPending ? 'Posting...' : 'Post'}
        </button>
      </div>
    </form>
  );
}
