import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { MessageBubble, type ChatLine } from './MessageBubble';

interface ChatLogProps {
  /** Names the log ('Messages with Bob'). */
  label: string;
  /** Oldest first. */
  lines: readonly ChatLine[];
  /** Above the first message: 'Load older messages'. */
  before?: ReactNode;
}

/**
 * The scrolling message log of a chat: oldest at the top, the newest in view.
 * A new message scrolls to it; older ones loaded above keep what is on screen.
 */
export function ChatLog({ label, lines, before }: ChatLogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const lastOwn = lines.findLast((line) => line.own);
  const onScroll = useStickToNewest(ref, lines.at(-1)?.id, `${lines.length}:${lastOwn?.id}:${lastOwn?.isRead}`);
  return (
    <div ref={ref} className="chat-log" role="log" aria-label={label} tabIndex={0} onScroll={onScroll}>
      {before}
      {lines.length === 0 ? (
        <p className="chat-log__empty">No messages yet. Say hello!</p>
      ) : (
        <ol className="chat-log__list">
          {lines.map((line) => (
            <MessageBubble key={line.id} line={line} receipt={line.id === lastOwn?.id} />
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * Scrolls to the bottom when the newest message changes (opening, sending,
 * receiving); any other change of the content (older messages above, a read
 * receipt below) keeps the distance from the bottom the reader scrolled to.
 */
function useStickToNewest(ref: RefObject<HTMLDivElement | null>, newestId: string | undefined, shape: string) {
  const newest = useRef<string | undefined>(undefined);
  const fromBottom = useRef(0);
  useLayoutEffect(() => {
    const log = ref.current;
    if (!log) return;
    if (newest.current !== newestId) fromBottom.current = 0;
    newest.current = newestId;
    log.scrollTop = log.scrollHeight - log.clientHeight - fromBottom.current;
  }, [ref, newestId, shape]);
  return () => {
    const log = ref.current;
    if (log) fromBottom.current = log.scrollHeight - log.clientHeight - log.scrollTop;
  };
}
