import type { Conversation } from '@hoptrack/proto';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { MessageIcon } from '../components/icons';
import { LoadingState } from '../components/LoadingState';
import { ChatPane } from '../components/messages/ChatPane';
import { ConversationList } from '../components/messages/ConversationList';
import { NewConversationSearch } from '../components/messages/NewConversationSearch';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';
import { listItems } from '../lib/cursorPages';
import { useConversationList, useStartConversation } from '../lib/useMessaging';

/**
 * `/messages` (spec section 2): the conversation list with the
 * new-conversation search, and the open conversation (`?conversation={id}`).
 * `?user={id}` starts or opens the conversation with that user, then selects
 * it. Narrow screens show the list, or the open chat with a way back.
 */
export function MessagesPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('conversation');
  const startWith = params.get('user');
  // The conversation just started: shown even before (or if never) the list holds it.
  const [started, setStarted] = useState<Conversation | null>(null);
  const list = useConversationList();
  const start = useStartConversation(
    startWith,
    (conversation) => {
      setStarted(conversation);
      setParams({ conversation: conversation.id }, { replace: true });
    },
    () => setParams({}, { replace: true }),
  );

  if (!user) return null;
  const selected =
    listItems(list.data).find((conversation) => conversation.id === selectedId) ??
    (started?.id === selectedId ? started : undefined);

  let chat;
  if (startWith) {
    chat = start.isError ? null : <LoadingState label="Opening conversation..." />;
  } else if (selected) {
    chat = <ChatPane key={selected.id} conversation={selected} viewerId={user.id} />;
  } else if (selectedId && list.isPending) {
    chat = <LoadingState label="Loading conversation..." />;
  } else if (selectedId) {
    chat = <EmptyState title="Conversation not found" text="It is not among your conversations." Icon={MessageIcon} />;
  } else {
    chat = <EmptyState title="Your messages" text="Choose a conversation, or search for someone to start one." Icon={MessageIcon} />;
  }

  const open = Boolean(selectedId || startWith);
  return (
    <div className="page">
      <PageHeader title="Messages" subtitle="Chat with your friends." />
      <div className={`messages-layout${open ? ' messages-layout--open' : ''}`}>
        <section className="card messages-layout__list" aria-label="Your conversations">
          <NewConversationSearch onPick={(person) => setParams({ user: person.id })}>
            <ConversationList list={list} viewerId={user.id} selectedId={selectedId} />
          </NewConversationSearch>
        </section>
        <div className="messages-layout__chat">{chat}</div>
      </div>
    </div>
  );
}
