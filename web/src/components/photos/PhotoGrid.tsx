import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Photo } from '@hoptrack/proto';
import { SEARCH_QUERY_MAX } from '@hoptrack/proto/constants';
import { useEffect, useRef, useState } from 'react';
import { ALBUMS_KEY, albumPhotosKey, photosApi } from '../../lib/photosApi';
import { EmptyState } from '../EmptyState';
import { CameraIcon, SearchIcon } from '../icons';
import { SearchInput } from '../SearchInput';
import { ListError } from '../social/UserList';
import { PhotoTile } from './PhotoTile';
import { PhotoViewer } from './PhotoViewer';

/** While any photo of the list is still processing, the list is read again this often. */
export const PROCESSING_POLL_MS = 1500;
/** Tiles shown while an album's photos load. */
const PHOTO_SKELETON_COUNT = 6;

const isProcessing = (photo: Photo) => photo.status === 'processing';

interface PhotoGridProps {
  albumId: string;
  /** The trimmed search text, sent as `?q=` ('' for all photos). */
  query: string;
}

/**
 * An album's photos (GET /api/albums/{id}/photos?q=). The one list in the app
 * that refetches by itself: every 1.5 s while a photo is processing, so the
 * thumbnails appear as the worker makes them; when the last one is done the
 * albums list is refreshed too (its cover and count follow the photos).
 */
export function PhotoGrid({ albumId, query }: PhotoGridProps) {
  const queryClient = useQueryClient();
  const photos = useQuery({
    queryKey: albumPhotosKey(albumId, query),
    queryFn: () => photosApi.listPhotos(albumId, query),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.some(isProcessing) ? PROCESSING_POLL_MS : false),
  });
  const [opened, setOpened] = useState<Photo | null>(null);

  const processing = photos.data?.some(isProcessing) ?? false;
  const wasProcessing = useRef(processing);
  useEffect(() => {
    if (wasProcessing.current && !processing) void queryClient.invalidateQueries({ queryKey: ALBUMS_KEY, exact: true });
    wasProcessing.current = processing;
  }, [processing, queryClient]);

  if (photos.isPending) return <PhotoGridSkeleton />;
  if (photos.isError) return <ListError text="Could not load the photos of this album." onRetry={() => void photos.refetch()} />;
  if (photos.data.length === 0) {
    return query ? (
      <EmptyState title="No matching photos" text={`No photo name or description matches “${query}”.`} Icon={SearchIcon} />
    ) : (
      <EmptyState title="No photos yet" text="Use Add Photos to upload the pictures of your sessions and nights out." Icon={CameraIcon} />
    );
  }
  return (
    <>
      <ul className="photo-grid" aria-label="Photos" aria-busy={photos.isPlaceholderData}>
        {photos.data.map((photo) => (
          <PhotoTile key={photo.id} photo={photo} onOpen={setOpened} />
        ))}
      </ul>
      {opened && <PhotoViewer photo={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

function PhotoGridSkeleton() {
  return (
    <div className="photo-grid" role="status" aria-label="Loading photos">
      {Array.from({ length: PHOTO_SKELETON_COUNT }, (_, index) => (
        <span key={index} className="photo-tile__frame skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

/** The album's search box: filters by file name and description. */
export function PhotoSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <SearchInput
      className="photo-search"
      label="Search photos"
      placeholder="Search by file name or description"
      maxLength={SEARCH_QUERY_MAX}
      value={value}
      onChange={onChange}
    />
  );
}
