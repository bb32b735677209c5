import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, PrivacyKey, PrivacyUpdateRequest } from '@hoptrack/proto';
import { Link } from 'react-router';
import { PageHeader } from '../components/PageHeader';
import { Switch } from '../components/Switch';
import { useAuth } from '../lib/auth';
import { authApi, CURRENT_USER_KEY } from '../lib/authApi';
import { useToast } from '../lib/toast';

interface PrivacySetting {
  key: PrivacyKey;
  label: string;
  description: string;
  /** What the current value means, in words, for the summary. */
  summary: (on: boolean) => string;
}

const SETTINGS: readonly PrivacySetting[] = [
  {
    key: 'isProfilePrivate',
    label: 'Private Profile',
    description: 'Only friends can see your sessions, photos and profile info.',
    summary: (on) =>
      on
        ? 'Your profile is private: only your friends can see your sessions, photos and profile info.'
        : 'Your profile is public: anyone can see your sessions, photos and profile info.',
  },
  {
    key: 'allowDirectMessages',
    label: 'Allow Direct Messages',
    description: 'Let other users send you direct messages.',
    summary: (on) =>
      on ? 'Other users can send you direct messages.' : 'Other users cannot send you direct messages.',
  },
  {
    key: 'showOnlineStatus',
    label: 'Show Online Status',
    description: "Let your friends see when you're online.",
    summary: (on) =>
      on ? "Your friends can see when you're online." : 'Your online status is hidden from your friends.',
  },
  {
    key: 'showEmailToFriends',
    label: 'Show my e-mail to friends',
    description: 'Off: nobody but you sees your e-mail address. On: your friends see it too; nobody else ever does.',
    summary: (on) =>
      on ? 'Your friends can see your e-mail address; nobody else can.' : 'Nobody but you can see your e-mail address.',
  },
];

type PrivacyValues = Pick<CurrentUser, PrivacyKey>;

/** `/privacy`: each switch saves on change (optimistically) and reverts if the save fails. */
export function PrivacyPage() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const toast = useToast();

  const patchCachedUser = (values: Partial<PrivacyValues>) =>
    queryClient.setQueryData<CurrentUser | null>(CURRENT_USER_KEY, (current) => current && { ...current, ...values });

  const save = useMutation({
    mutationFn: authApi.updatePrivacy,
    onMutate: async (change: PrivacyUpdateRequest) => {
      await queryClient.cancelQueries({ queryKey: CURRENT_USER_KEY });
      const before = queryClient.getQueryData<CurrentUser | null>(CURRENT_USER_KEY);
      patchCachedUser(change);
      return { revert: before ? pickChanged(before, change) : {} };
    },
    onSuccess: (saved, change) => patchCachedUser(pickChanged(saved, change)),
    onError: (_error, _change, context) => {
      if (context) patchCachedUser(context.revert);
      toast({
        title: 'Error',
        description: 'Failed to update privacy settings. Please try again.',
        variant: 'destructive',
      });
    },
  });

  if (!user) return null;

  return (
    <div className="page page--narrow">
      <PageHeader
        title="Privacy Settings"
        subtitle="Control who can see your profile and reach you."
        actions={
          <Link to="/account" className="button button--secondary button--small">
            Account Settings
          </Link>
        }
      />
      <section className="card" aria-label="Privacy switches">
        {SETTINGS.map((setting) => (
          <Switch
            key={setting.key}
            label={setting.label}
            description={setting.description}
            checked={user[setting.key]}
            onCheckedChange={(checked) => save.mutate({ [setting.key]: checked })}
          />
        ))}
      </section>
      <section className="card privacy-summary" aria-labelledby="privacy-summary-title">
        <h2 id="privacy-summary-title">Your privacy at a glance</h2>
        <ul>
          {SETTINGS.map((setting) => (
            <li key={setting.key}>{setting.summary(user[setting.key])}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** The values `source` holds for the keys a change touched. */
function pickChanged(source: PrivacyValues, change: PrivacyUpdateRequest): Partial<PrivacyValues> {
  const picked: Partial<PrivacyValues> = {};
  for (const key of Object.keys(change) as PrivacyKey[]) picked[key] = source[key];
  return picked;
}
