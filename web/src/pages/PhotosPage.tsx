import { useSearchParams } from 'react-router';
import { AlbumGrid } from '../components/photos/AlbumGrid';
import { AlbumView } from '../components/photos/AlbumView';
import { SessionPhotosView } from '../components/photos/SessionPhotosView';
import { SESSION_PHOTOS_ALBUM } from '../lib/photosApi';

/**
 * `/photos`: your albums; `?album={id}` opens one (its photos, search, add
 * and delete), `?album=sessions` the photos of your sessions, so a reload or
 * the browser's back button keeps the place.
 */
export function PhotosPage() {
  const [params] = useSearchParams();
  const albumId = params.get('album');
  let shown;
  if (albumId === SESSION_PHOTOS_ALBUM) shown = <SessionPhotosView />;
  else if (albumId) shown = <AlbumView key={albumId} albumId={albumId} />;
  else shown = <AlbumGrid />;
  return <div className="page photos-page">{shown}</div>;
}
