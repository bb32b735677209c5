import { useSearchParams } from 'react-router';
import { AlbumGrid } from '../components/photos/AlbumGrid';
import { AlbumView } from '../components/photos/AlbumView';

/**
 * `/photos`: your albums; `?album={id}` opens one (its photos, search, add
 * and delete), so a reload or the browser's back button keeps the place.
 */
export function PhotosPage() {
  const [params] = useSearchParams();
  const albumId = params.get('album');
  return <div className="page photos-page">{albumId ? <AlbumView key={albumId} albumId={albumId} /> : <AlbumGrid />}</div>;
}
