import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { DmChat } from '../components/dm/DmChat';
import { ThreadList } from '../components/dm/ThreadList';
import { EmptyState } from '../components/EmptyState';
import { MessageIcon } from '../components/icons';
import { LoadingState } from '../components/LoadingState';
import type { ChatPerson } from '../components/messages/ChatHeader';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';
import { dmThreadsQuery } from '../lib/messagingApi';
import { userQuery } from '../lib/socialApi';

/**
 * `/dm` (spec section 2): the older, thread-based messages screen. The
 * threads, and the one with `?user={otherUserId}` open; a user without a
 * thread yet is looked up by their profile, so a first message can be sent.
 */
export function DmPage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const otherUserId = params.get('user');
  const threads = useQuery(dmThreadsQuery());
  const thread = threads.data?.find((candidate) => candidate.otherUserId === otherUserId);
  const profile = useQuery({
    ...userQuery(otherUserId ?? ''),
    enabled: otherUserId !== null && threads.isSuccess && !thread,
  });

  if (!user) return null;
  const person: ChatPerson | undefined = thread
    ? {
        id: thread.otherUserId,
        displayName: thread.otherUserDisplayName,
        username: thread.otherUserUsername,
        profilePicture: thread.otherUserProfilePicture,
      }
    : profile.data && { ...profile.data, profilePicture: profile.data.profilePicture ?? profile.data.avatar };

  let chat;
  if (!otherUserId) {
    chat = <EmptyState title="Your threads" text="Choose a thread to read and reply." Icon={MessageIcon} />;
  } else if (person) {
    // The thread says whether the other accepts messages; before the first message, their profile does.
    const canMessage = thread ? thread.canMessage : (profile.data?.allowDirectMessages ?? true);
    chat = <DmChat key={person.id} person={person} viewerId={user.id} canMessage={canMessage} />;
  } else if (threads.isError || profile.isError) {
    chat = <EmptyState title="User not found" text="There is no thread with this user." Icon={MessageIcon} />;
  } else {
    chat = <LoadingState label="Loading thread..." />;
  }

  return (
    <div className="page">
      <PageHeader title="Direct Messages" subtitle="Your direct message threads." />
      <div className={`messages-layout${otherUserId ? ' messages-layout--open' : ''}`}>
        <section className="card messages-layout__list" aria-label="Your threads">
          <ThreadList threads={threads} selectedUserId={otherUserId} viewerId={user.id} />
        </section>
        <div className="messages-layout__chat">{chat}</div>
      </div>
    </div>
  );
}
