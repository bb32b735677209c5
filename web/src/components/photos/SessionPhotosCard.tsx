import { Link } from 'react-router';
import { photoCountLabel, SESSION_PHOTOS_ALBUM } from '../../lib/photosApi';
import { AlbumCover } from './AlbumCard';

/**
 * The built-in album in the grid (issue 40): the photos of the viewer's
 * sessions, the newest as its cover. Nothing to delete here: a photo goes
 * with its session (or an edit of it).
 */
export function SessionPhotosCard({ count, cover }: { count: number; cover: string | null }) {
  return (
    <li className="album-card album-card--built-in" aria-label="Session photos">
      <AlbumCover src={cover} />
      <div className="album-card__body">
        <div className="album-card__text">
          <Link to={{ pathname: '/photos', search: `?album=${SESSION_PHOTOS_ALBUM}` }} className="album-card__name user-card__stretch">
            Session photos
          </Link>
          <p className="album-card__meta">
            <span>{photoCountLabel(count)}</span>
            <span aria-hidden="true"> · </span>
            <span>from your sessions</span>
          </p>
        </div>
      </div>
    </li>
  );
}
