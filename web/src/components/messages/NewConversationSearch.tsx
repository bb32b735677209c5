import type { OtherUser } from '@hoptrack/proto';
import { SEARCH_QUERY_MAX } from '@hoptrack/proto/constants';
import { useState, type ReactNode } from 'react';
import { useUserSearch } from '../../lib/useUserSearch';
import { SearchInput } from '../SearchInput';
import { UserCard } from '../social/UserCard';
import { UserSearchResults } from '../social/UserSearchResults';

/** New-conversation search runs for any non-blank trimmed text (spec section 5). */
const NEW_CONVERSATION_MIN_LENGTH = 1;

interface NewConversationSearchProps {
  onPick: (user: OtherUser) => void;
  /** Shown while nothing is typed: the conversation list. */
  children: ReactNode;
}

/**
 * 'Search people to message' above the conversation list: while it holds
 * text its results replace the list; 'Message' opens the conversation.
 */
export function NewConversationSearch({ onPick, children }: NewConversationSearchProps) {
  const [text, setText] = useState('');
  const search = useUserSearch(text, NEW_CONVERSATION_MIN_LENGTH);
  const pick = (user: OtherUser) => {
    setText('');
    onPick(user);
  };
  return (
    <>
      <SearchInput
        value={text}
        onChange={setText}
        label="Search people to message"
        placeholder="New conversation..."
        maxLength={SEARCH_QUERY_MAX}
      />
      {search.active ? (
        <UserSearchResults search={search} className="new-conversation__results">
          {(user) => (
            <UserCard
              key={user.id}
              user={user}
              open="none"
              meta={user.allowDirectMessages ? undefined : 'Does not accept direct messages'}
              actions={
                <button
                  type="button"
                  className="button button--secondary button--small button--static"
                  disabled={!user.allowDirectMessages}
                  onClick={() => pick(user)}
                >
                  Message
                </button>
              }
            />
          )}
        </UserSearchResults>
      ) : (
        children
      )}
    </>
  );
}
