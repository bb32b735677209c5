import type { Device } from '@hoptrack/proto';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { serverMessage } from '../../api';
import { useAuth } from '../../lib/auth';
import { authApi, DEVICES_KEY, devicesQuery } from '../../lib/authApi';
import { dateTime, relativeTime } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { LoadError } from './LoadError';

/**
 * Your devices (issue 40): where the person is signed in (GET /api/me/devices),
 * this device marked, and "Sign out" on each: the other device's token is
 * refused everywhere from the answer on, and its open tab signs out at its
 * next call or live update; this device's is the app's own "Sign out".
 */
export function DevicesSection() {
  const titleId = useId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const { logOut } = useAuth();
  const devices = useQuery(devicesQuery());

  const signOutOther = useMutation({
    mutationFn: (id: string) => authApi.signOutDevice(id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Device[]>(DEVICES_KEY, (list = []) => list.filter((device) => device.id !== id));
      toast({ title: 'Signed out', description: 'That device is signed out.' });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: DEVICES_KEY, exact: true });
      toast({ title: 'Error', description: serverMessage(error, 'Failed to sign that device out'), variant: 'destructive' });
    },
  });

  const signOut = (device: Device) => {
    if (!device.current) return signOutOther.mutate(device.id);
    void logOut().then(() => navigate('/'));
  };

  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Your devices
      </h2>
      <p className="account-section__note">Where you are signed in. Sign out a device you do not know, or no longer use.</p>
      {devices.isError ? (
        <LoadError what="your devices" onRetry={() => void devices.refetch()} />
      ) : (
        devices.data && (
          <ul className="account-exports" aria-label="Signed-in devices">
            {devices.data.map((device) => (
              <DeviceRow key={device.id} device={device} busy={signOutOther.isPending && signOutOther.variables === device.id} onSignOut={() => signOut(device)} />
            ))}
          </ul>
        )
      )}
    </section>
  );
}

function DeviceRow({ device, busy, onSignOut }: { device: Device; busy: boolean; onSignOut: () => void }) {
  const nameId = useId();
  return (
    <li className="account-export" aria-labelledby={nameId}>
      <div className="account-export__facts">
        <span id={nameId} className="account-export__requested">
          {device.device}
          {device.current && <strong className="account-device__current"> · This device</strong>}
        </span>
        <span className="account-export__status">
          {device.place} · signed in {dateTime(device.signedInAt)} · last used {relativeTime(device.lastUsedAt).toLowerCase()}
        </span>
      </div>
      <button type="button" className="button button--secondary button--small" disabled={busy} aria-describedby={nameId} onClick={onSignOut}>
        {busy ? 'Signing out...' : 'Sign out'}
      </button>
    </li>
  );
}
