import type { Photo } from '@hoptrack/proto';
import { photosApi } from '../../lib/photosApi';
import { DeleteButton } from './DeleteButton';

/**
 * One photo of an album: its thumbnail once the worker made it ('ready',
 * a button that opens it large), 'Processing…' until then, or 'Could not
 * process' with the reason when it failed. Each has a delete button.
 */
export function PhotoTile({ photo, onOpen }: { photo: Photo; onOpen: (photo: Photo) => void }) {
  return (
    <li className={`photo-tile photo-tile--${photo.status}`} aria-label={photo.originalName}>
      <PhotoTileImage photo={photo} onOpen={onOpen} />
      <div className="photo-tile__footer">
        <span className="photo-tile__name" title={photo.originalName}>
          {photo.originalName}
        </span>
        <DeleteButton
          label={`Delete photo ${photo.originalName}`}
          title="Delete photo?"
          description={`“${photo.originalName}” will be removed from this album. This cannot be undone.`}
          run={() => photosApi.deletePhoto(photo.id)}
          failure="Failed to delete photo. Please try again."
        />
      </div>
    </li>
  );
}

function PhotoTileImage({ photo, onOpen }: { photo: Photo; onOpen: (photo: Photo) => void }) {
  if (photo.status === 'failed') {
    return (
      <div className="photo-tile__frame photo-tile__state photo-tile__state--failed">
        <strong>Could not process</strong>
        {photo.failureReason && <span className="photo-tile__reason">{photo.failureReason}</span>}
      </div>
    );
  }
  if (photo.status === 'ready' && photo.thumbnailUrl) {
    return (
      <button type="button" className="photo-tile__frame photo-tile__open" aria-haspopup="dialog" onClick={() => onOpen(photo)}>
        <img className="photo-tile__image" src={photo.thumbnailUrl} alt={photo.originalName} loading="lazy" />
      </button>
    );
  }
  return (
    <div className="photo-tile__frame photo-tile__state">
      <span className="spinner" aria-hidden="true" />
      <span>Processing…</span>
    </div>
  );
}
