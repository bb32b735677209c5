import { EXPORT_COOLDOWN_MS, type DataExport } from '@hoptrack/proto';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorStatus, serverMessage } from '../../api';
import { authApi, DATA_EXPORTS_KEY, dataExportsQuery } from '../../lib/authApi';
import { dateTime, fileSizeLabel } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { LoadError } from './LoadError';

/** While an export is being prepared, the list is read again this often (and only then). */
export const EXPORT_POLL_MS = 2000;
/** The name the zip is saved under. */
export const EXPORT_FILE_NAME = 'hoptrack-export.zip';
/** How long the saved zip's object URL is kept: the browser has taken the download over long before. */
const REVOKE_AFTER_MS = 10_000;
/** The list keeps as many exports as the server answers (the newest five). */
const HISTORY = 5;

const CONTENTS = [
  'Your profile and privacy settings',
  'Your friends and the people you blocked',
  'Your beer sessions, with their likes, comments and reactions',
  'Your messages',
  'Your albums, with the original photos',
  'Your reviews of places',
  'Your challenges',
  'Your notifications',
] as const;

const isPending = (item: DataExport) => item.status === 'pending';

/**
 * When the next export may be asked for (one a day, EXPORT_COOLDOWN_MS): a
 * day after the latest was, or null when that is past. The server says the
 * same with a 429; the page says it before anyone clicks.
 */
export function nextExportAt(list: readonly DataExport[] | undefined, now: number): Date | null {
  const latest = list?.reduce<DataExport | undefined>((newest, item) => (!newest || item.requestedAt > newest.requestedAt ? item : newest), undefined);
  if (!latest) return null;
  const next = Date.parse(latest.requestedAt) + EXPORT_COOLDOWN_MS;
  return next > now ? new Date(next) : null;
}

/**
 * Download my data (issue 24 items 3 and 6): POST /api/me/export starts a
 * copy of everything the person has on Hoptrack, which the services prepare
 * as one zip; the list (GET /api/me/exports) is read every 2 s while one is
 * being prepared, and a ready one downloads through the bearer-authenticated
 * GET /api/me/export/{id} (a redirect to a short-lived signed link), saved
 * from a Blob. The person is mailed as well when it is ready. One a day
 * (issue 39): until a day after the latest request the button waits and
 * says until when; a newer export's zip replaces the earlier ones, which
 * then read as expired.
 */
export function DownloadDataSection() {
  const titleId = useId();
  const cooldownId = useId();
  const queryClient = useQueryClient();
  const toast = useToast();

  const exports = useQuery({
    ...dataExportsQuery(),
    refetchInterval: (current) => (current.state.data?.some(isPending) ? EXPORT_POLL_MS : false),
  });
  const preparing = exports.data?.some(isPending) ?? false;
  const waitUntil = preparing ? null : nextExportAt(exports.data, Date.now());

  const request = useMutation({
    mutationFn: authApi.requestExport,
    onSuccess: ({ started, dataExport }) => {
      // Shown at once (and polled from here on); the list read after it agrees.
      queryClient.setQueryData<DataExport[]>(DATA_EXPORTS_KEY, (list = []) =>
        [dataExport, ...list.filter((item) => item.id !== dataExport.id)].slice(0, HISTORY),
      );
      void queryClient.invalidateQueries({ queryKey: DATA_EXPORTS_KEY, exact: true });
      toast(
        started
          ? { title: 'Export requested', description: 'We are preparing your data and will e-mail you when it is ready.' }
          : { title: 'Already preparing', description: 'Your data is already being prepared; we will e-mail you when it is ready.' },
      );
    },
    onError: (error) => {
      // 429: one was asked for within the day (another tab, another device): the list shows which, and when the next may be.
      if (errorStatus(error) === 429) void queryClient.invalidateQueries({ queryKey: DATA_EXPORTS_KEY, exact: true });
      toast({ title: 'Error', description: serverMessage(error, 'Failed to request your data'), variant: 'destructive' });
    },
  });

  const download = useMutation({
    mutationFn: (id: string) => authApi.downloadExport(id),
    onSuccess: (zip) => saveFile(zip, EXPORT_FILE_NAME),
    onError: (error) => {
      // 409 (still being prepared), 410 (expired), 404 (gone): the list is behind; read it again.
      const status = errorStatus(error);
      if (status === 409 || status === 410 || status === 404) void queryClient.invalidateQueries({ queryKey: DATA_EXPORTS_KEY, exact: true });
      toast({ title: 'Error', description: serverMessage(error, 'Failed to download your data'), variant: 'destructive' });
    },
  });
  const downloading = download.isPending ? download.variables : undefined;

  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Download my data
      </h2>
      <p className="account-section__note">
        A zip file with a copy of everything you have on Hoptrack. Preparing it takes a few minutes; we e-mail you when it is
        ready, and it can be downloaded until the date shown below. It contains:
      </p>
      <ul className="account-export-contents">
        {CONTENTS.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <div>
        <button
          type="button"
          className="button button--secondary"
          disabled={preparing || waitUntil !== null || request.isPending}
          aria-describedby={waitUntil ? cooldownId : undefined}
          onClick={() => request.mutate()}
        >
          {request.isPending ? 'Requesting...' : 'Request my data'}
        </button>
        {waitUntil && (
          <p id={cooldownId} className="account-section__note">
            You can request a new copy once a day: from {dateTime(waitUntil.toISOString())}.
          </p>
        )}
      </div>
      {exports.isError ? (
        <LoadError what="your exports" onRetry={() => void exports.refetch()} />
      ) : (
        exports.data &&
        exports.data.length > 0 && (
          <ul className="account-exports" aria-label="Your exports" aria-live="polite">
            {exports.data.map((item) => (
              <ExportRow key={item.id} item={item} downloading={downloading === item.id} onDownload={() => download.mutate(item.id)} />
            ))}
          </ul>
        )
      )}
    </section>
  );
}

function ExportRow({ item, downloading, onDownload }: { item: DataExport; downloading: boolean; onDownload: () => void }) {
  const requestedId = useId();
  return (
    <li className="account-export">
      <div className="account-export__facts">
        <span id={requestedId} className="account-export__requested">
          Requested {dateTime(item.requestedAt)}
        </span>
        <span className={`account-export__status account-export__status--${item.status}`}>{statusText(item)}</span>
      </div>
      {item.status === 'ready' && (
        <button
          type="button"
          className="button button--primary button--small"
          disabled={downloading}
          aria-describedby={requestedId}
          onClick={onDownload}
        >
          {downloading ? 'Downloading...' : 'Download'}
        </button>
      )}
    </li>
  );
}

/** 'Preparing…', 'Ready — download until Nov 27, 2026, 12:19 PM · 2.3 MB', 'Expired'. */
function statusText(item: DataExport): string {
  if (item.status === 'pending') return 'Preparing…';
  if (item.status === 'expired') return 'Expired';
  const until = item.expiresAt ? ` — download until ${dateTime(item.expiresAt)}` : '';
  const size = item.size !== null ? ` · ${fileSizeLabel(item.size)}` : '';
  return `Ready${until}${size}`;
}

/** Saves `file` under `name` the way a link with `download` would: a temporary object URL, revoked once the browser has it. */
function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
