import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { albumsQuery, photoCountLabel } from '../../lib/photosApi';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useUserSearch';
import { EmptyState } from '../EmptyState';
import { ArrowLeftIcon, CameraIcon } from '../icons';
import { PageHeader } from '../PageHeader';
import { AddPhotosDialog } from './AddPhotosDialog';
import { PhotoGrid, PhotoSearch } from './PhotoGrid';

export function BackToAlbums() {
  return (
    <Link to="/photos" className="button button--ghost back-link">
      <ArrowLeftIcon width={18} height={18} />
      Back to Albums
    </Link>
  );
}

/**
 * /photos?album={id}: one of your albums. Its name and count come from the
 * albums list (loaded alongside the photos); an id that is not among your
 * albums shows 'Album not found'. The search is sent when typing pauses.
 */
export function AlbumView({ albumId }: { albumId: string }) {
  const albums = useQuery(albumsQuery());
  const album = albums.data?.find((candidate) => candidate.id === albumId);
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [adding, setAdding] = useState(false);

  if (albums.isSuccess && !album) {
    return (
      <>
        <title>Album not found · Hoptrack</title>
        <BackToAlbums />
        <EmptyState title="Album not found" text="It may have been deleted." Icon={CameraIcon} headingLevel={1} />
      </>
    );
  }

  const addButton = (
    <button type="button" className="button button--primary" aria-haspopup="dialog" disabled={!album} onClick={() => setAdding(true)}>
      Add Photos
    </button>
  );
  return (
    <>
      <BackToAlbums />
      <PageHeader
        title={album?.name ?? 'Photos'}
        subtitle={album && [album.description, photoCountLabel(album.photoCount)].filter(Boolean).join(' · ')}
        actions={addButton}
      />
      <PhotoSearch value={search} onChange={setSearch} />
      <PhotoGrid albumId={albumId} query={query} />
      {adding && album && <AddPhotosDialog album={album} onClose={() => setAdding(false)} />}
    </>
  );
}
