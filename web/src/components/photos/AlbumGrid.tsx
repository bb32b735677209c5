import { useInfiniteQuery, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { Album } from '@hoptrack/proto';
import { useState } from 'react';
import { useAuth } from '../../lib/auth';
import { albumsQuery, sessionPhotosQuery } from '../../lib/photosApi';
import { EmptyState } from '../EmptyState';
import { CameraIcon } from '../icons';
import { PageHeader } from '../PageHeader';
import { ListError } from '../social/UserList';
import { AlbumCard, AlbumGridSkeleton } from './AlbumCard';
import { CreateAlbumDialog } from './CreateAlbumDialog';
import { SessionPhotosCard } from './SessionPhotosCard';

/**
 * /photos without an open album: the photos of your sessions (a built-in
 * album, first, once there is one: issue 40), your albums, newest first as
 * the server sends them, and 'Create Album'.
 */
export function AlbumGrid() {
  const albums = useQuery(albumsQuery());
  const { user } = useAuth();
  const sessionPhotos = useInfiniteQuery({ ...sessionPhotosQuery(user?.id ?? ''), enabled: user !== null });
  const first = sessionPhotos.data?.pages[0];
  // Its count and cover, once read; a failed read leaves the albums as they are.
  const builtIn = first && first.total > 0 ? { count: first.total, cover: first.photos[0]?.url ?? null } : null;
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Photos"
        subtitle="Your photo albums from sessions and nights out."
        actions={
          <button type="button" className="button button--primary" aria-haspopup="dialog" onClick={() => setCreating(true)}>
            Create Album
          </button>
        }
      />
      <AlbumGridBody albums={albums} sessionPhotos={builtIn} />
      {creating && <CreateAlbumDialog onClose={() => setCreating(false)} />}
    </>
  );
}

function AlbumGridBody({ albums, sessionPhotos }: { albums: UseQueryResult<Album[]>; sessionPhotos: { count: number; cover: string | null } | null }) {
  if (albums.isPending) return <AlbumGridSkeleton />;
  if (albums.isError) return <ListError text="Could not load your albums." onRetry={() => void albums.refetch()} />;
  if (albums.data.length === 0 && !sessionPhotos) {
    return (
      <EmptyState
        title="No albums yet"
        text="Create your first album to keep the photos of your sessions and nights out."
        Icon={CameraIcon}
      />
    );
  }
  return (
    <ul className="album-grid" aria-label="Albums">
      {sessionPhotos && <SessionPhotosCard count={sessionPhotos.count} cover={sessionPhotos.cover} />}
      {albums.data.map((album) => (
        <AlbumCard key={album.id} album={album} />
      ))}
    </ul>
  );
}
