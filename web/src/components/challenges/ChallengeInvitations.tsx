import { useQuery } from '@tanstack/react-query';
import type { ChallengeInvitation } from '@hoptrack/proto';
import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { CHALLENGE_READS, challengesApi, invitationsQuery } from '../../lib/challengesApi';
import { calendarDate } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { useNow } from '../../lib/useNow';
import { useSocialAction } from '../../lib/useSocialAction';
import { LoadingState } from '../LoadingState';
import { StaticState } from '../social/FriendshipButton';
import { UserCard } from '../social/UserCard';
import { ListError, UserList } from '../social/UserList';

const STATUS_LABELS: Record<ChallengeInvitation['status'], string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
};

/**
 * Where an invitation stands now: the server's word, and 'expired' once a
 * pending one's day is over on this clock (the list is not read again at
 * that moment, and an answer past it is refused anyway).
 */
function statusAt(invitation: ChallengeInvitation, now: number): ChallengeInvitation['status'] {
  return invitation.status === 'pending' && Date.parse(invitation.expiresAt) <= now ? 'expired' : invitation.status;
}

/**
 * The viewer's invitations: received ones to accept or decline (accepting
 * joins the challenge and opens its page), and sent ones with where they
 * stand. An answer comes by the live stream (lib/live.ts refetches the list).
 */
export function ChallengeInvitations() {
  const headingId = useId();
  const invitations = useQuery(invitationsQuery());
  let body;
  if (invitations.isPending) body = <LoadingState label="Loading invitations..." />;
  else if (invitations.isError) body = <ListError text="Failed to fetch invitations" onRetry={() => void invitations.refetch()} />;
  else {
    const { received, sent } = invitations.data;
    body =
      received.length + sent.length === 0 ? (
        <p className="challenge-section__empty">No invitations yet. Join a challenge, then invite your friends to it.</p>
      ) : (
        <>
          <InvitationList title="Received" label="Received invitations" items={received} direction="received" />
          <InvitationList title="Sent" label="Sent invitations" items={sent} direction="sent" />
        </>
      );
  }
  return (
    <section className="challenge-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="challenge-section__title">
        Invitations
      </h2>
      {body}
    </section>
  );
}

interface InvitationListProps {
  title: string;
  label: string;
  items: readonly ChallengeInvitation[];
  direction: 'received' | 'sent';
}

function InvitationList({ title, label, items, direction }: InvitationListProps) {
  const now = useNow();
  if (items.length === 0) return null;
  return (
    <>
      <h3 className="challenge-section__subtitle">{title}</h3>
      <UserList label={label} items={items}>
        {(invitation) => {
          const received = direction === 'received';
          const status = statusAt(invitation, now);
          const challengeLink = <Link to={`/challenges/${encodeURIComponent(invitation.challenge.id)}`}>{invitation.challenge.title}</Link>;
          return (
            <UserCard
              key={invitation.id}
              user={received ? invitation.from : invitation.to}
              open="none"
              meta={
                <>
                  {received ? 'Invited you to ' : 'Invited to '}
                  {challengeLink} · {calendarDate(invitation.challenge.date)}
                </>
              }
              actions={
                received && status === 'pending' ? <AnswerButtons invitation={invitation} /> : <StaticState label={STATUS_LABELS[status]} />
              }
            />
          );
        }}
      </UserList>
    </>
  );
}

function AnswerButtons({ invitation }: { invitation: ChallengeInvitation }) {
  const toast = useToast();
  const navigate = useNavigate();
  const { challenge } = invitation;
  const failure = { title: 'Failed to answer invitation', fallback: 'Something went wrong. Please try again.' };
  const accept = useSocialAction<void, ChallengeInvitation>({
    mutationFn: () => challengesApi.answer(invitation.id, 'accept'),
    affects: CHALLENGE_READS,
    failure,
    onSuccess: () => {
      toast({ title: 'Invitation accepted!', description: `You joined “${challenge.title}”.` });
      void navigate(`/challenges/${encodeURIComponent(challenge.id)}`);
    },
  });
  const decline = useSocialAction<void, ChallengeInvitation>({
    mutationFn: () => challengesApi.answer(invitation.id, 'decline'),
    affects: CHALLENGE_READS,
    failure,
  });
  const busy = accept.isPending || decline.isPending;
  return (
    <>
      <button type="button" className="button button--primary button--small" disabled={busy} onClick={() => accept.mutate()}>
        Accept
      </button>
      <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => decline.mutate()}>
        Decline
      </button>
    </>
  );
}
