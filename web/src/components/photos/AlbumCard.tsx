import type { Album } from '@hoptrack/proto';
import { Link } from 'react-router';
import { shortDate } from '../../lib/format';
import { photoCountLabel, photosApi } from '../../lib/photosApi';
import { CameraIcon } from '../icons';
import { DeleteButton } from './DeleteButton';

/** The link that opens an album: /photos?album={id}, so a reload opens it again. */
const albumLink = (albumId: string) => ({ pathname: '/photos', search: `?album=${albumId}` });

/**
 * One album in the grid: its cover (the first processed photo's thumbnail, or
 * a placeholder), name, photo count and date. The name is the card's link and
 * stretches over the whole card; the delete button stays clickable above it.
 */
export function AlbumCard({ album }: { album: Album }) {
  const count = photoCountLabel(album.photoCount);
  return (
    <li className="album-card" aria-label={album.name}>
      <AlbumCover src={album.coverPhoto} />
      <div className="album-card__body">
        <div className="album-card__text">
          <Link to={albumLink(album.id)} className="album-card__name user-card__stretch">
            {album.name}
          </Link>
          <p className="album-card__meta">
            <span>{count}</span>
            <span aria-hidden="true"> · </span>
            <time dateTime={album.createdAt}>{shortDate(album.createdAt)}</time>
          </p>
        </div>
        <div className="album-card__actions">
          <DeleteButton
            label={`Delete album ${album.name}`}
            title="Delete album?"
            description={`“${album.name}” and its ${count} will be deleted. This cannot be undone.`}
            run={() => photosApi.deleteAlbum(album.id)}
            failure="Failed to delete album. Please try again."
          />
        </div>
      </div>
    </li>
  );
}

/** An album's cover: its image, or a camera where it has none yet. */
export function AlbumCover({ src }: { src: string | null }) {
  return (
    <div className="album-card__cover">
      {src ? <img className="album-card__image" src={src} alt="" loading="lazy" /> : <CameraIcon className="album-card__placeholder" width={40} height={40} />}
    </div>
  );
}

/** What the grid shows while the albums load (6 cards). */
export const ALBUM_SKELETON_COUNT = 6;

export function AlbumGridSkeleton() {
  return (
    <div className="album-grid" role="status" aria-label="Loading albums">
      {Array.from({ length: ALBUM_SKELETON_COUNT }, (_, index) => (
        <div key={index} className="album-card album-card--skeleton" aria-hidden="true">
          <span className="album-card__cover skeleton" />
          <span className="album-card__body">
            <span className="skeleton skeleton--line" />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </div>
      ))}
    </div>
  );
}
