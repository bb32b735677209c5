import { useInfiniteQuery } from '@tanstack/react-query';
import type { SessionPhoto } from '@hoptrack/proto';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { shortDate } from '../../lib/format';
import { photoCountLabel, sessionPhotosQuery } from '../../lib/photosApi';
import { EmptyState } from '../EmptyState';
import { CameraIcon } from '../icons';
import { LoadingState } from '../LoadingState';
import { LoadMoreButton } from '../LoadMoreButton';
import { Modal } from '../Modal';
import { PageHeader } from '../PageHeader';
import { ListError } from '../social/UserList';
import { BackToAlbums } from './AlbumView';

const sessionHref = (photo: SessionPhoto) => `/sessions/${encodeURIComponent(photo.sessionId)}`;

/**
 * /photos?album=sessions (issue 40): every photo of the viewer's sessions,
 * newest session first, each named after its session and leading to it.
 * Read from the sessions, so it holds what they hold: a photo is added or
 * removed by logging or editing its session, not here.
 */
export function SessionPhotosView() {
  const { user } = useAuth();
  const pages = useInfiniteQuery({ ...sessionPhotosQuery(user?.id ?? ''), enabled: user !== null });
  const [opened, setOpened] = useState<SessionPhoto | null>(null);
  const total = pages.data?.pages[0]?.total;
  const photos = pages.data?.pages.flatMap((page) => page.photos) ?? [];

  let body;
  if (pages.isPending) body = <LoadingState label="Loading photos..." />;
  else if (pages.isError) body = <ListError text="Could not load the photos of your sessions." onRetry={() => void pages.refetch()} />;
  else if (photos.length === 0) {
    body = <EmptyState title="No session photos yet" text="The photos you add when you log a session show up here." Icon={CameraIcon} />;
  } else {
    body = (
      <>
        <ul className="photo-grid" aria-label="Photos">
          {photos.map((photo, index) => (
            <li key={`${photo.sessionId}-${index}`} className="photo-tile" aria-label={photo.sessionTitle}>
              <button type="button" className="photo-tile__frame photo-tile__open" aria-haspopup="dialog" onClick={() => setOpened(photo)}>
                <img className="photo-tile__image" src={photo.url} alt={photo.sessionTitle} loading="lazy" />
              </button>
              <div className="photo-tile__footer">
                <Link to={sessionHref(photo)} className="photo-tile__name" title={photo.sessionTitle}>
                  {photo.sessionTitle}
                </Link>
              </div>
            </li>
          ))}
        </ul>
        <LoadMoreButton pages={pages} label="Load more photos" centered />
      </>
    );
  }

  return (
    <>
      <BackToAlbums />
      <PageHeader
        title="Session photos"
        subtitle={[
          'The photos of your beer sessions. To add or remove one, log or edit its session.',
          total === undefined ? null : photoCountLabel(total),
        ]
          .filter(Boolean)
          .join(' · ')}
      />
      {body}
      {opened && (
        <Modal open title={opened.sessionTitle} onClose={() => setOpened(null)}>
          <figure className="photo-viewer">
            <img className="photo-viewer__image" src={opened.url} alt={opened.sessionTitle} />
            <figcaption className="photo-viewer__facts">
              {shortDate(opened.createdAt)} · <Link to={sessionHref(opened)}>Open the session</Link>
            </figcaption>
          </figure>
        </Modal>
      )}
    </>
  );
}
