import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { Album } from '@hoptrack/proto';
import { useState } from 'react';
import { albumsQuery } from '../../lib/photosApi';
import { EmptyState } from '../EmptyState';
import { CameraIcon } from '../icons';
import { PageHeader } from '../PageHeader';
import { ListError } from '../social/UserList';
import { AlbumCard, AlbumGridSkeleton } from './AlbumCard';
import { CreateAlbumDialog } from './CreateAlbumDialog';

/** /photos without an open album: your albums, newest first as the server sends them, and 'Create Album'. */
export function AlbumGrid() {
  const albums = useQuery(albumsQuery());
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
      <AlbumGridBody albums={albums} />
      {creating && <CreateAlbumDialog onClose={() => setCreating(false)} />}
    </>
  );
}

function AlbumGridBody({ albums }: { albums: UseQueryResult<Album[]> }) {
  if (albums.isPending) return <AlbumGridSkeleton />;
  if (albums.isError) return <ListError text="Could not load your albums." onRetry={() => void albums.refetch()} />;
  if (albums.data.length === 0) {
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
      {albums.data.map((album) => (
        <AlbumCard key={album.id} album={album} />
      ))}
    </ul>
  );
}
