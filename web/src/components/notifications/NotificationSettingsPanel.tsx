import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationKind, NotificationKindSetting, NotificationSettings } from '@hoptrack/proto';
import { NOTIFICATION_SETTINGS_KEY, notificationSettingsQuery, notificationsApi } from '../../lib/notificationsApi';
import { useToast } from '../../lib/toast';
import { LoadingState } from '../LoadingState';
import { ListError } from '../social/UserList';

type Channel = keyof NotificationKindSetting;

const CHANNELS: readonly { channel: Channel; label: string }[] = [
  { channel: 'inApp', label: 'In the app' },
  { channel: 'email', label: 'E-mail' },
];

/**
 * Per kind, whether it shows in the inbox and whether it is mailed. Each
 * switch saves on change (optimistically) and reverts if the save fails, as
 * the privacy switches do.
 */
export function NotificationSettingsPanel() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const settings = useQuery(notificationSettingsQuery());
  const save = useMutation({
    mutationFn: ({ kind, setting }: { kind: NotificationKind; setting: NotificationKindSetting }) =>
      notificationsApi.updateSettings({ kinds: { [kind]: setting } }),
    onMutate: async ({ kind, setting }) => {
      await queryClient.cancelQueries({ queryKey: NOTIFICATION_SETTINGS_KEY });
      const before = queryClient.getQueryData<NotificationSettings>(NOTIFICATION_SETTINGS_KEY);
      queryClient.setQueryData<NotificationSettings>(NOTIFICATION_SETTINGS_KEY, (current) => {
        const kindBefore = current?.kinds[kind];
        return current && kindBefore ? { kinds: { ...current.kinds, [kind]: { ...kindBefore, ...setting } } } : current;
      });
      return { before };
    },
    onSuccess: (saved) => queryClient.setQueryData(NOTIFICATION_SETTINGS_KEY, saved),
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(NOTIFICATION_SETTINGS_KEY, context.before);
      toast({ title: 'Error', description: 'Failed to update notification settings. Please try again.', variant: 'destructive' });
    },
  });

  let body;
  if (settings.isPending) body = <LoadingState label="Loading settings..." />;
  else if (settings.isError) body = <ListError text="Failed to fetch notification settings" onRetry={() => void settings.refetch()} />;
  else {
    const kinds = Object.entries(settings.data.kinds) as [NotificationKind, NotificationKindSetting & { label: string }][];
    body = (
      <table className="notification-settings__table">
        <thead>
          <tr>
            <th scope="col">What</th>
            {CHANNELS.map(({ channel, label }) => (
              <th scope="col" key={channel}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {kinds.map(([kind, setting]) => (
            <tr key={kind}>
              <th scope="row">{setting.label}</th>
              {CHANNELS.map(({ channel, label }) => (
                <td key={channel}>
                  <button
                    type="button"
                    role="switch"
                    className="switch"
                    aria-checked={setting[channel]}
                    aria-label={`${setting.label}: ${label}`}
                    data-state={setting[channel] ? 'on' : 'off'}
                    onClick={() =>
                      save.mutate({ kind, setting: { inApp: setting.inApp, email: setting.email, [channel]: !setting[channel] } })
                    }
                  >
                    <span className="switch__thumb" />
                  </button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <section className="card notification-settings" aria-labelledby="notification-settings-title">
      <h2 id="notification-settings-title" className="notifications__title">
        Settings
      </h2>
      <p className="notification-settings__hint">Choose what shows up here and what we also send you by e-mail. E-mails are batched: ten likes make one mail.</p>
      {body}
    </section>
  );
}
